/**
 * Per-post, per-action queue for like, save and repost (spec §4.4). The UI shows the latest desired
 * state at once; requests go out one at a time and, when the user changed their mind while one was in
 * flight, the latest desired state is sent last. A failure rolls back to the last state the server
 * confirmed.
 */
export interface ActionQueueOptions<K> {
  send: (key: K, desired: boolean) => Promise<void>;
  /** The state the UI should show for `key` (desired while pending, confirmed after a failure). */
  onState: (key: K, state: boolean) => void;
  onError?: (key: K, error: unknown) => void;
}

interface Entry {
  confirmed: boolean;
  desired: boolean;
  running: boolean;
}

export class ActionQueue<K extends string> {
  private readonly entries = new Map<K, Entry>();

  constructor(private readonly options: ActionQueueOptions<K>) {}

  /** Asks for `desired`; `current` is what the server last said, used when the key is new. */
  set(key: K, desired: boolean, current: boolean): Promise<void> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { confirmed: current, desired: current, running: false };
      this.entries.set(key, entry);
    }
    entry.desired = desired;
    this.options.onState(key, desired);
    return entry.running ? Promise.resolve() : this.drain(key, entry);
  }

  isPending(key: K): boolean {
    return this.entries.get(key)?.running ?? false;
  }

  private async drain(key: K, entry: Entry): Promise<void> {
    entry.running = true;
    try {
      while (entry.desired !== entry.confirmed) {
        const target = entry.desired;
        try {
          await this.options.send(key, target);
          entry.confirmed = target;
        } catch (error) {
          entry.desired = entry.confirmed;
          this.options.onState(key, entry.confirmed);
          this.options.onError?.(key, error);
          return;
        }
      }
    } finally {
      entry.running = false;
      this.entries.delete(key);
    }
  }
}
