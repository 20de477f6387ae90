import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LIVEKIT_VERSION,
  livekitPlan,
  livekitTarget,
  NO_GO_MESSAGE,
} from '../../../scripts/livekit-provision.mjs';

const GO = 'go version go1.26.1 linux/amd64';

describe('what npm start does about the media server', () => {
  it('builds the pinned LiveKit server when it is missing and Go is installed', () => {
    expect(livekitPlan({}, { installedVersion: null, goVersion: GO })).toBe('build');
  });

  it('replaces another installed version when Go is installed', () => {
    expect(livekitPlan({}, { installedVersion: '1.9.0', goVersion: GO })).toBe('build');
  });

  it('uses the installed pinned binary without Go', () => {
    expect(livekitPlan({}, { installedVersion: LIVEKIT_VERSION, goVersion: null })).toBe('ready');
  });

  it('says what is missing (once, by start.mjs) when there is neither a binary nor Go', () => {
    expect(livekitPlan({}, { installedVersion: null, goVersion: null })).toBe('no-go');
    expect(NO_GO_MESSAGE).toContain('Go');
    expect(NO_GO_MESSAGE).toContain('LIVEKIT_URL');
    expect(NO_GO_MESSAGE).toContain(LIVEKIT_VERSION);
  });

  it('provisions nothing for an external media server or an operator’s own binary', () => {
    expect(
      livekitPlan({ LIVEKIT_URL: 'wss://lk.example.org' }, { installedVersion: null, goVersion: GO }),
    ).toBe('external');
    expect(
      livekitPlan({ LIVEKIT_BIN: '/opt/livekit-server' }, { installedVersion: null, goVersion: GO }),
    ).toBe('custom');
    // LIVEKIT_BIN naming the default place is the default.
    expect(
      livekitPlan(
        { LIVEKIT_BIN: path.relative(process.cwd(), livekitTarget) },
        { installedVersion: null, goVersion: GO },
      ),
    ).toBe('build');
  });

  it('can be told to skip the build', () => {
    expect(livekitPlan({ KADR_SKIP_LIVEKIT_SETUP: '1' }, { installedVersion: null, goVersion: GO })).toBe(
      'skip',
    );
  });
});
