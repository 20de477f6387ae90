/**
 * Coalesces calls that arrive together into one call of `run` (one SQL statement for many sends or
 * acks). Items queue while `maxInFlight` batches run; each finished batch takes the next queue at
 * once, so batches grow with load (group commit) and a lone item waits only for `setImmediate`, or for
 * `lingerMs` where gathering more matters more than its latency (delivery receipts).
 *
 * Background batches (`turnBetween`) let the event loop take a turn before the next one: a statement runs in
 * the server's thread on PGlite, and back-to-back batches of a long queue were one stall for every socket.
 *
 * `run` answers one result per item, in order. When a batch of several fails, its items are run
 * again one by one, so a bad item fails alone and the others still succeed.
 */
export function batcher<I, O>(
  run: (items: I[]) => Promise<O[]>,
  options: { maxBatch: number; maxInFlight: number; lingerMs?: number; turnBetween?: boolean },
) {
  interface Entry {
    /** When it was queued (performance.now()). */
    at: number;
    item: I;
    resolve: (value: O) => void;
    reject: (reason: unknown) => void;
  }
  let queue: Entry[] = [];
  let inFlight = 0;
  let scheduled = false;
  const idle = new Set<() => void>();

  async function runSettled(batch: Entry[]) {
    try {
      const results = await run(batch.map((e) => e.item));
      for (const [i, entry] of batch.entries()) entry.resolve(results[i] as O);
    } catch (err) {
      if (batch.length === 1) (batch[0] as Entry).reject(err);
      else for (const entry of batch) await runSettled([entry]);
    }
  }

  function pump() {
    scheduled = false;
    while (queue.length > 0 && inFlight < options.maxInFlight) {
      const batch = queue.slice(0, options.maxBatch);
      queue = queue.slice(batch.length);
      inFlight += 1;
      void runSettled(batch).finally(() => {
        inFlight -= 1;
        if (options.turnBetween && queue.length > 0 && !scheduled) {
          scheduled = true;
          setImmediate(pump);
        } else pump();
      });
    }
    if (queue.length === 0 && inFlight === 0) for (const done of idle) done();
  }

  return {
    push(item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        queue.push({ at: performance.now(), item, resolve, reject });
        if (!scheduled && inFlight < options.maxInFlight) {
          scheduled = true;
          if (options.lingerMs) setTimeout(pump, options.lingerMs);
          else setImmediate(pump);
        }
      });
    },
    /** How long the oldest queued item has waited for a batch, ms (0 when nothing waits). */
    waitingMs(): number {
      const oldest = queue[0];
      return oldest ? performance.now() - oldest.at : 0;
    },
    /** Resolves once nothing is queued or running (shutdown waits for it before the database closes). */
    drained(): Promise<void> {
      if (queue.length === 0 && inFlight === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          idle.delete(done);
          resolve();
        };
        idle.add(done);
      });
    },
  };
}

export type Batcher<I, O> = ReturnType<typeof batcher<I, O>>;
