/**
 * LiveKit's console lines (`<time>\t<LEVEL>\t<logger>\t<caller>\t<message>\t<{json fields}>`) as entries of
 * Kadr's own log, so a newcomer reads one format. Its idle chatter is dropped or lowered: the CPU monitor's
 * "high cpu load" (it measures the whole machine, every minute while idle) and the note that it falls back
 * to system-wide CPU figures are debug-level facts, not news.
 */
export type LivekitEntry = {
  level: 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  fields: Record<string, unknown>;
};

const LEVELS: Record<string, LivekitEntry['level']> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
  DPANIC: 'error',
  PANIC: 'fatal',
  FATAL: 'fatal',
};

const QUIET = [/^high cpu load$/, /^failed reading cgroup specific cpu stats/];

export function livekitEntry(line: string): LivekitEntry | null {
  const parts = line.split('\t');
  const level = LEVELS[parts[1] ?? ''];
  if (!level || parts.length < 5) {
    const text = line.trim();
    return text ? { level: 'info', msg: text, fields: {} } : null;
  }
  const msg = parts[4] ?? '';
  let fields: Record<string, unknown> = {};
  const rest = parts.slice(5).join('\t').trim();
  if (rest.startsWith('{')) {
    try {
      fields = JSON.parse(rest) as Record<string, unknown>;
    } catch {
      fields = { detail: rest };
    }
  }
  const quiet = QUIET.some((re) => re.test(msg));
  return { level: quiet ? 'debug' : level, msg, fields };
}
