// What `npm start` does about the media server before it starts Kadr (and what `setup:livekit` builds).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const LIVEKIT_VERSION = '1.13.5';
const root = path.resolve(import.meta.dirname, '..');
export const livekitTarget = path.join(root, '.tools/bin/livekit-server');

/** The version a livekit-server binary reports, or null when it is missing or says none. */
export function binaryVersion(file) {
  if (!fs.existsSync(file)) return null;
  const res = spawnSync(file, ['--version'], { encoding: 'utf8' });
  const match = /version\s+(\S+)/.exec(`${res.stdout}${res.stderr}`);
  return match ? match[1] : null;
}

/** `go version`'s answer, or null when Go is not installed (or not on PATH). */
export function goVersion() {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  return go.error || go.status !== 0 ? null : go.stdout.trim();
}

/**
 * The decision, from facts only (so it is tested without Go or binaries):
 * - `external`: LIVEKIT_URL names a media server; nothing to provision.
 * - `custom`: LIVEKIT_BIN names the operator's own binary; used as it is.
 * - `ready`: the pinned binary is installed.
 * - `build`: it is missing or another version, and Go is there to build it (as `npm run setup:livekit`).
 * - `no-go`: it is missing and Go is not installed; Kadr runs without streams and calls, and says so once.
 * - `skip`: KADR_SKIP_LIVEKIT_SETUP=1 (tests and CI stages that provision it themselves).
 */
export function livekitPlan(env, facts) {
  if (env.LIVEKIT_URL) return 'external';
  if (env.LIVEKIT_BIN && path.resolve(env.LIVEKIT_BIN) !== livekitTarget) return 'custom';
  if (facts.installedVersion === LIVEKIT_VERSION) return 'ready';
  if (['1', 'true', 'yes'].includes(env.KADR_SKIP_LIVEKIT_SETUP ?? '')) return 'skip';
  return facts.goVersion ? 'build' : 'no-go';
}

export const NO_GO_MESSAGE = [
  'Live streams and calls are off: no LiveKit media server is configured (LIVEKIT_URL is unset),',
  `none is installed at ${path.relative(root, livekitTarget)}, and Go — needed to build the pinned v${LIVEKIT_VERSION} — is not installed.`,
  'Install Go 1.26+ and run `npm start` again (it builds the server once, a few minutes), or set LIVEKIT_URL,',
  'LIVEKIT_API_KEY and LIVEKIT_API_SECRET for an existing LiveKit server. Everything else runs now.',
].join('\n');
