import type { MessageFile, SendMessageBody } from '@kadr/contract';

/**
 * A message the user sent that the server has not confirmed yet. It is persisted, so a message
 * written offline survives a reload; it is sent once the connection returns, in the order written.
 * The server is idempotent on (sender, temp_id), so a send repeated after a reload that cut the
 * first answer off creates nothing new.
 */
export interface OutboxEntry {
  temp_id: string;
  owner_id: number;
  /** The peer (personal chat); for a group or channel minus its id, the conversation key its window uses. */
  other_user_id: number;
  /** Set for a group or channel message: where it goes instead of a peer. */
  room?: { kind: 'group' | 'channel'; id: number };
  /** The message this one answers (room chats). */
  reply_to_id?: number;
  content: string;
  attachment_ids: number[];
  /** The uploaded attachments, shown while pending. */
  files: MessageFile[];
  created_at: string;
  state: 'pending' | 'sending' | 'failed';
  /** Why the server refused it (its Russian `error`), shown under the failed bubble. */
  error?: string;
  /**
   * Whether sending it again can succeed (a file still processing): only then is a retry offered. A refusal
   * that a resend cannot change (too long, not allowed to write there) is a failed state with its reason.
   */
  retryable?: boolean;
  /** When it failed: a failed entry is dropped a day later, so it never outlives reloads forever. */
  failed_at?: string;
}

export interface OutboxStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** A refusal: 'failed' alone is a retryable one without a reason (older callers). */
export type SendOutcome =
  | 'sent'
  | 'retry-later'
  | 'failed'
  | { failed: true; error: string; retryable: boolean };

/** A failed entry is kept this long after it failed (shown with its reason), then dropped at the next load. */
export const FAILED_KEEP_MS = 24 * 60 * 60 * 1000;

export interface OutboxOptions {
  storage: OutboxStorage;
  key: string;
  /** Sends one entry: 'sent' on success, 'retry-later' when offline, a failure when refused. */
  send: (entry: OutboxEntry) => Promise<SendOutcome>;
  now?: () => number;
}

type Listener = (entries: readonly OutboxEntry[]) => void;

function isEntry(value: unknown): value is OutboxEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Partial<OutboxEntry>;
  return (
    typeof e.temp_id === 'string' &&
    typeof e.owner_id === 'number' &&
    typeof e.other_user_id === 'number' &&
    typeof e.content === 'string' &&
    Array.isArray(e.attachment_ids) &&
    Array.isArray(e.files)
  );
}

export function newTempId(now: number = Date.now()): string {
  const random = Math.random().toString(36).slice(2, 10);
  return `temp-${now.toString(36)}-${random}`;
}

export function entryBody(entry: OutboxEntry): SendMessageBody {
  const target = entry.room
    ? entry.room.kind === 'group'
      ? { group_id: entry.room.id }
      : { channel_id: entry.room.id }
    : { other_user_id: entry.other_user_id };
  return {
    ...target,
    ...(entry.reply_to_id !== undefined ? { reply_to_id: entry.reply_to_id } : {}),
    content: entry.content,
    temp_id: entry.temp_id,
    ...(entry.attachment_ids.length > 0 ? { attachment_ids: entry.attachment_ids } : {}),
  };
}

export class Outbox {
  private entries: OutboxEntry[];
  private flushing: Promise<void> | null = null;
  private again = false;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: OutboxOptions) {
    this.entries = this.read();
  }

  private read(): OutboxEntry[] {
    let raw: string | null = null;
    try {
      raw = this.options.storage.getItem(this.options.key);
    } catch {
      return [];
    }
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      // An entry caught mid-send by a reload goes back to pending; the temp_id makes resending safe.
      // A failure older than a day is dropped: it was shown with its reason long enough.
      const now = this.options.now?.() ?? Date.now();
      return Array.isArray(parsed)
        ? parsed
            .filter(isEntry)
            .filter(
              (e) => e.state !== 'failed' || now - Date.parse(e.failed_at ?? e.created_at) < FAILED_KEEP_MS,
            )
            .map((e) => (e.state === 'sending' ? { ...e, state: 'pending' } : e))
        : [];
    } catch {
      return [];
    }
  }

  private write(next: OutboxEntry[]): void {
    this.entries = next;
    try {
      this.options.storage.setItem(this.options.key, JSON.stringify(next));
    } catch {
      // Quota exceeded: the entry still lives in memory for this session.
    }
    for (const listener of this.listeners) listener(next);
  }

  list(): readonly OutboxEntry[] {
    return this.entries;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enqueue(entry: Omit<OutboxEntry, 'state'>): void {
    this.write([...this.entries, { ...entry, state: 'pending' }]);
  }

  /** The server confirmed this temp_id (answer or realtime echo): the entry is done. */
  confirm(tempId: string): void {
    if (this.entries.some((e) => e.temp_id === tempId)) {
      this.write(this.entries.filter((e) => e.temp_id !== tempId));
    }
  }

  /** A failed entry that may succeed goes back into the queue at its place; a permanent refusal stays. */
  resend(tempId: string): Promise<void> {
    this.write(
      this.entries.map((e) => {
        if (e.temp_id !== tempId || e.state !== 'failed' || e.retryable === false) return e;
        const { error: _error, retryable: _retryable, failed_at: _at, ...rest } = e;
        return { ...rest, state: 'pending' };
      }),
    );
    return this.flush();
  }

  /** Every entry of `ownerId` (sign-out forgets them: they may hold private text). */
  forget(ownerId?: number): void {
    this.write(ownerId === undefined ? [] : this.entries.filter((e) => e.owner_id !== ownerId));
  }

  discard(tempId: string): void {
    this.write(this.entries.filter((e) => e.temp_id !== tempId));
  }

  private setState(tempId: string, state: OutboxEntry['state'], extra: Partial<OutboxEntry> = {}): void {
    this.write(this.entries.map((e) => (e.temp_id === tempId ? { ...e, ...extra, state } : e)));
  }

  /**
   * Sends the owner's pending entries one at a time, oldest first. Only one flush runs at a time;
   * a flush requested meanwhile runs right after it. Stops at the first 'retry-later' so later
   * messages never overtake an earlier one.
   */
  flush(ownerId?: number): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        await this.drain(ownerId);
      } while (this.again);
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(ownerId: number | undefined): Promise<void> {
    for (;;) {
      const next = this.entries.find(
        (e) => e.state === 'pending' && (ownerId === undefined || e.owner_id === ownerId),
      );
      if (!next) return;
      this.setState(next.temp_id, 'sending');
      let outcome: SendOutcome;
      try {
        outcome = await this.options.send(next);
      } catch {
        outcome = 'retry-later';
      }
      if (outcome === 'sent') {
        this.confirm(next.temp_id);
      } else if (outcome === 'failed' || typeof outcome === 'object') {
        const failedAt = new Date(this.options.now?.() ?? Date.now()).toISOString();
        this.setState(
          next.temp_id,
          'failed',
          typeof outcome === 'object'
            ? { error: outcome.error, retryable: outcome.retryable, failed_at: failedAt }
            : { failed_at: failedAt },
        );
      } else {
        if (this.entries.some((e) => e.temp_id === next.temp_id)) this.setState(next.temp_id, 'pending');
        this.again = false;
        return;
      }
    }
  }
}
