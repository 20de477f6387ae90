/**
 * Milestones of the current call on the page's performance timeline (`kadr-call:<step>`), read by the
 * media e2e and the accept → first frame benchmark. Cleared when a new call rings.
 */
export function callMark(step: string) {
  performance.mark(`kadr-call:${step}`);
}

export function clearCallMarks() {
  for (const entry of performance.getEntriesByType('mark'))
    if (entry.name.startsWith('kadr-call:')) performance.clearMarks(entry.name);
}
