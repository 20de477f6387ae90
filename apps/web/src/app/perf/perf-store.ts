/**
 * The performance helper's numbers (spec §9, outside production only): the last 50 chat switches,
 * 100 message sends, 100 scroll measurements and 50 memory samples, each flagged slow past its threshold.
 */
export const PERF_MARKER = 'kadr-perf-helper';

export const PerfLimits = {
  chatSwitch: { keep: 50, slowAboveMs: 100 },
  messageSend: { keep: 100, slowAboveMs: 50 },
  scroll: { keep: 100, slowBelowFps: 55 },
  memory: { keep: 50, slowAboveMb: 200, everyMs: 5000 },
} as const;

export type PerfKind = 'chatSwitch' | 'messageSend' | 'scroll' | 'memory';

export interface PerfSample {
  value: number;
  at: number;
  slow: boolean;
}

export function isSlow(kind: PerfKind, value: number): boolean {
  switch (kind) {
    case 'chatSwitch':
      return value > PerfLimits.chatSwitch.slowAboveMs;
    case 'messageSend':
      return value > PerfLimits.messageSend.slowAboveMs;
    case 'scroll':
      return value < PerfLimits.scroll.slowBelowFps;
    case 'memory':
      return value > PerfLimits.memory.slowAboveMb;
  }
}

export interface PerfSummary {
  count: number;
  last: number | null;
  average: number | null;
  slow: number;
}

export class PerfStore {
  private readonly samples: Record<PerfKind, PerfSample[]> = {
    chatSwitch: [],
    messageSend: [],
    scroll: [],
    memory: [],
  };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  record(kind: PerfKind, value: number): PerfSample {
    const sample = { value, at: this.now(), slow: isSlow(kind, value) };
    const list = this.samples[kind];
    list.push(sample);
    const keep = PerfLimits[kind].keep;
    if (list.length > keep) list.splice(0, list.length - keep);
    for (const l of this.listeners) l();
    return sample;
  }

  list(kind: PerfKind): readonly PerfSample[] {
    return this.samples[kind];
  }

  summary(kind: PerfKind): PerfSummary {
    const list = this.samples[kind];
    if (list.length === 0) return { count: 0, last: null, average: null, slow: 0 };
    const total = list.reduce((s, x) => s + x.value, 0);
    return {
      count: list.length,
      last: (list[list.length - 1] as PerfSample).value,
      average: total / list.length,
      slow: list.filter((x) => x.slow).length,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Frames counted over a scroll burst → frames per second. */
export function fps(frames: number, durationMs: number): number {
  if (durationMs <= 0) return 60;
  return Math.min(240, (frames * 1000) / durationMs);
}
