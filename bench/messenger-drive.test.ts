import { describe, expect, it } from 'vitest';
import { drive, Tracker } from './messenger.bench.ts';

describe("the messenger bench's window", () => {
  it('is led in by the same traffic, and counts only the sends after the lead-in', async () => {
    const tracker = new Tracker();
    // 200 msg/s: 0.2 s of lead-in (seqs 0–39), then the measured 0.2 s (40–79).
    tracker.firstMeasured = 40;
    const into: boolean[] = [];
    const next = await drive(
      200,
      10,
      0.2,
      tracker,
      tracker.run,
      (seq, _sender, run) => {
        into[seq] = run === tracker.run;
        setImmediate(() => tracker.received(seq));
      },
      0,
      undefined,
      0.2,
    );
    expect(next).toBe(80);
    expect(into).toEqual([...Array(80).keys()].map((seq) => seq >= 40));
    expect(tracker.run.sent).toBe(40);
    expect(tracker.run.received).toBe(40);
    expect(tracker.run.latencies).toHaveLength(40);
    expect(tracker.pending.size).toBe(0);
  });
});
