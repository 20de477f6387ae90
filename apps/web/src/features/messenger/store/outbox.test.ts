import { describe, expect, it, vi } from 'vitest';
import { entryBody, Outbox, type OutboxEntry, type OutboxStorage, type SendOutcome } from './outbox.ts';

function memoryStorage(): OutboxStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

const entry = (temp_id: string, content: string, owner_id = 1): Omit<OutboxEntry, 'state'> => ({
  temp_id,
  owner_id,
  other_user_id: 2,
  content,
  attachment_ids: [],
  files: [],
  created_at: '2025-01-01T00:00:00.000Z',
});

/** A fake server: idempotent on temp_id like the real one, and switchable offline. */
function fakeServer() {
  const stored: string[] = [];
  const seen = new Set<string>();
  const calls: string[] = [];
  let online = false;
  return {
    stored,
    calls,
    setOnline: (value: boolean) => {
      online = value;
    },
    send: async (e: OutboxEntry): Promise<SendOutcome> => {
      calls.push(e.temp_id);
      await Promise.resolve();
      if (!online) return 'retry-later';
      if (!seen.has(e.temp_id)) {
        seen.add(e.temp_id);
        stored.push(e.content);
      }
      return 'sent';
    },
  };
}

describe('offline outbox', () => {
  it('keeps messages written offline pending, across a reload, and sends each once in order', async () => {
    const storage = memoryStorage();
    const server = fakeServer();
    const before = new Outbox({ storage, key: 'outbox', send: server.send });
    before.enqueue(entry('temp-1', 'первое'));
    before.enqueue(entry('temp-2', 'второе'));
    await before.flush(1);
    expect(server.stored).toEqual([]);
    // Stopped at the first offline answer: the second was not even tried out of order.
    expect(server.calls).toEqual(['temp-1']);
    expect(before.list().map((e) => e.state)).toEqual(['pending', 'pending']);

    // Reload: a new outbox reads the same storage.
    const after = new Outbox({ storage, key: 'outbox', send: server.send });
    expect(after.list().map((e) => e.content)).toEqual(['первое', 'второе']);
    server.setOnline(true);
    await Promise.all([after.flush(1), after.flush(1), after.flush(1)]);
    expect(server.stored).toEqual(['первое', 'второе']);
    expect(after.list()).toEqual([]);
    await after.flush(1);
    expect(server.stored).toEqual(['первое', 'второе']);
    expect(JSON.parse(storage.data.get('outbox') ?? 'null')).toEqual([]);
  });

  it('an entry cut off mid-send by a reload is resent with the same request, so the server stores it once', async () => {
    // The server keeps one message per temp_id (messenger-messages.test.ts, 'is idempotent on temp_id');
    // what the client owes it is the same temp_id and body on the resend, and nothing sent twice after.
    const storage = memoryStorage();
    const bodies: ReturnType<typeof entryBody>[] = [];
    let release: (() => void) | undefined;
    const hanging = new Outbox({
      storage,
      key: 'outbox',
      send: async (e) => {
        bodies.push(entryBody(e));
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return 'sent';
      },
    });
    hanging.enqueue(entry('temp-1', 'один'));
    void hanging.flush(1);
    await vi.waitFor(() => expect(release).toBeDefined());
    expect(JSON.parse(storage.data.get('outbox') ?? '[]')[0].state).toBe('sending');

    const reloaded = new Outbox({
      storage,
      key: 'outbox',
      send: async (e) => {
        bodies.push(entryBody(e));
        return 'sent';
      },
    });
    expect(reloaded.list()[0]?.state).toBe('pending');
    await reloaded.flush(1);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({ temp_id: 'temp-1', content: 'один', other_user_id: 2 });
    expect(reloaded.list()).toEqual([]);
    await reloaded.flush(1);
    expect(bodies).toHaveLength(2);
    release?.();
  });

  it('marks a refused message failed, keeps sending the rest, and resends on request', async () => {
    const storage = memoryStorage();
    const outcomes: Record<string, SendOutcome> = { 'temp-1': 'failed', 'temp-2': 'sent' };
    const sent: string[] = [];
    const outbox = new Outbox({
      storage,
      key: 'outbox',
      send: async (e) => {
        sent.push(e.temp_id);
        return outcomes[e.temp_id] ?? 'sent';
      },
    });
    outbox.enqueue(entry('temp-1', 'a'));
    outbox.enqueue(entry('temp-2', 'b'));
    await outbox.flush(1);
    expect(outbox.list().map((e) => [e.temp_id, e.state])).toEqual([['temp-1', 'failed']]);
    outcomes['temp-1'] = 'sent';
    await outbox.resend('temp-1');
    expect(outbox.list()).toEqual([]);
    expect(sent).toEqual(['temp-1', 'temp-2', 'temp-1']);
  });

  it("sends only the signed-in owner's entries and drops corrupt storage", async () => {
    const storage = memoryStorage();
    const sent: string[] = [];
    const outbox = new Outbox({
      storage,
      key: 'outbox',
      send: async (e) => {
        sent.push(e.temp_id);
        return 'sent';
      },
    });
    outbox.enqueue(entry('temp-a', 'a', 1));
    outbox.enqueue(entry('temp-b', 'b', 2));
    await outbox.flush(2);
    expect(sent).toEqual(['temp-b']);
    storage.data.set('broken', '{not json');
    expect(new Outbox({ storage, key: 'broken', send: async () => 'sent' }).list()).toEqual([]);
  });

  it('confirm() from the realtime echo removes the entry', () => {
    const outbox = new Outbox({ storage: memoryStorage(), key: 'o', send: async () => 'sent' });
    outbox.enqueue(entry('temp-1', 'a'));
    outbox.confirm('temp-1');
    expect(outbox.list()).toEqual([]);
  });

  it('group and channel messages written offline go to their room once after reconnect, in order', async () => {
    const storage = memoryStorage();
    const server = fakeServer();
    const bodies: ReturnType<typeof entryBody>[] = [];
    const send = (e: OutboxEntry) => {
      bodies.push(entryBody(e));
      return server.send(e);
    };
    const before = new Outbox({ storage, key: 'outbox', send });
    before.enqueue({
      ...entry('temp-g', 'в группу'),
      other_user_id: -7,
      room: { kind: 'group', id: 7 },
      reply_to_id: 3,
    });
    before.enqueue({ ...entry('temp-c', 'в канал'), other_user_id: -9, room: { kind: 'channel', id: 9 } });
    await before.flush(1);
    expect(server.stored).toEqual([]);

    const after = new Outbox({ storage, key: 'outbox', send });
    expect(after.list().map((e) => e.room)).toEqual([
      { kind: 'group', id: 7 },
      { kind: 'channel', id: 9 },
    ]);
    server.setOnline(true);
    await Promise.all([after.flush(1), after.flush(1)]);
    expect(server.stored).toEqual(['в группу', 'в канал']);
    expect(bodies.at(-2)).toEqual({ group_id: 7, reply_to_id: 3, content: 'в группу', temp_id: 'temp-g' });
    expect(bodies.at(-1)).toEqual({ channel_id: 9, content: 'в канал', temp_id: 'temp-c' });
    expect(after.list()).toEqual([]);
  });

  it('a final refusal keeps its reason and is not retried; a failure is dropped a day later at load', async () => {
    const storage = memoryStorage();
    let now = Date.parse('2025-01-01T00:00:00.000Z');
    const send = vi.fn(
      async (): Promise<SendOutcome> => ({
        failed: true,
        error: 'Слишком длинное сообщение',
        retryable: false,
      }),
    );
    const outbox = new Outbox({ storage, key: 'outbox', send, now: () => now });
    outbox.enqueue(entry('temp-1', 'длинное'));
    await outbox.flush(1);
    expect(outbox.list()[0]).toMatchObject({
      state: 'failed',
      error: 'Слишком длинное сообщение',
      retryable: false,
    });
    // «Повторить отправку» cannot succeed: the entry stays failed and nothing is sent again.
    await outbox.resend('temp-1');
    expect(send).toHaveBeenCalledOnce();
    expect(outbox.list()[0]?.state).toBe('failed');

    now += 23 * 60 * 60 * 1000;
    expect(new Outbox({ storage, key: 'outbox', send, now: () => now }).list()).toHaveLength(1);
    now += 2 * 60 * 60 * 1000;
    expect(new Outbox({ storage, key: 'outbox', send, now: () => now }).list()).toEqual([]);
  });

  it('forgets one person’s entries (sign-out)', () => {
    const outbox = new Outbox({ storage: memoryStorage(), key: 'outbox', send: fakeServer().send });
    outbox.enqueue(entry('temp-1', 'моё', 1));
    outbox.enqueue(entry('temp-2', 'чужое', 2));
    outbox.forget(1);
    expect(outbox.list().map((e) => e.temp_id)).toEqual(['temp-2']);
  });
});
