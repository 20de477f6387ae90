import { describe, expect, it } from 'vitest';
import { drive, Tracker } from './messenger.bench.ts';
import { threadCpuMs } from './pauses.ts';

/** Holds this thread until it has run `ms` on a core. */
function spin(ms: number) {
  const until = threadCpuMs() + ms;
  while (threadCpuMs() < until) {}
}

describe("the messenger bench's window", () => {
  it('is led in by the same traffic, and counts only the sends after the lead-in, and their CPU', async () => {
    const tracker = new Tracker();
    // 200 msg/s: 0.2 s of lead-in (seqs 0–39), then the measured 0.2 s (40–79).
    tracker.firstMeasured = 40;
    const into: boolean[] = [];
    const run = tracker.run;
    // This process stands in for the server: each lead-in send costs it 5 ms of CPU, a measured one next to none.
    const next = await drive(
      200,
      10,
      0.2,
      tracker,
      run,
      (seq, _sender, sendRun) => {
        into[seq] = sendRun === run;
        if (seq < 40) spin(5);
        setImmediate(() => tracker.received(seq));
      },
      0,
      process.pid,
      0.2,
    );
    expect(next).toBe(80);
    expect(into).toEqual([...Array(80).keys()].map((seq) => seq >= 40));
    expect(run.sent).toBe(40);
    expect(run.received).toBe(40);
    expect(run.latencies).toHaveLength(40);
    expect(tracker.pending.size).toBe(0);
    // The measured sends' CPU only, not the lead-in's 200 ms (/proc counts in 10 ms ticks).
    expect(run.serverCpuMs).toBeGreaterThanOrEqual(0);
    expect(run.serverCpuMs).toBeLessThan(100);
  });
});
