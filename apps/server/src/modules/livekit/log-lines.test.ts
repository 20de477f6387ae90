import { describe, expect, it } from 'vitest';
import { livekitEntry } from './log-lines.ts';

describe("LiveKit's log lines in Kadr's log", () => {
  it('reads level, message and fields', () => {
    expect(
      livekitEntry(
        '2026-11-28T19:44:46.539Z\tINFO\tlivekit\tservice/server.go:292\tstarting LiveKit server\t{"portHttp": 17880, "nodeIP": "127.0.0.1"}',
      ),
    ).toEqual({
      level: 'info',
      msg: 'starting LiveKit server',
      fields: { portHttp: 17880, nodeIP: '127.0.0.1' },
    });
    expect(livekitEntry('2026-11-28T19:44:46.532Z\tWARN\tlivekit\tx.go:1\tslow')).toEqual({
      level: 'warn',
      msg: 'slow',
      fields: {},
    });
  });

  it('lowers the idle CPU monitor to debug', () => {
    expect(
      livekitEntry('2026-11-28T19:44:47.538Z\tINFO\tlivekit\thwstats/cpu.go:211\thigh cpu load\t{"load": 1}')
        ?.level,
    ).toBe('debug');
    expect(
      livekitEntry(
        '2026-11-28T19:44:46.533Z\tINFO\tlivekit\thwstats/cpu_linux.go:77\tfailed reading cgroup specific cpu stats, falling back',
      )?.level,
    ).toBe('debug');
  });

  it('keeps a line it cannot read as an info message', () => {
    expect(livekitEntry('panic: something')).toEqual({ level: 'info', msg: 'panic: something', fields: {} });
    expect(livekitEntry('   ')).toBeNull();
  });
});
