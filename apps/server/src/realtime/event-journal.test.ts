import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisReachable } from '../../test/sockets.ts';
import { JOURNAL_WINDOW_MS, memoryJournal, redisJournal } from './event-journal.ts';

describe('memoryJournal', () => {
  it('answers the events sent to a user at or after a time, once each, and nobody else’s', async () => {
    let clock = 1_000_000;
    const journal = memoryJournal(() => clock);
    journal.note(1, 'new-message');
    clock += 10;
    journal.note(1, 'notification-created');
    journal.note(2, 'story-ready');
    clock += 10;
    journal.note(1, 'new-message');
    expect(await journal.since(1, 1_000_000)).toEqual(['new-message', 'notification-created']);
    expect(await journal.since(1, 1_000_011)).toEqual(['new-message']);
    expect(await journal.since(1, clock + 1)).toEqual([]);
    expect(await journal.since(3, 1_000_000)).toEqual([]);
    await journal.close();
  });

  it('leaves out what only the asking page caused, not what another page or no page did', async () => {
    let clock = 2_000_000;
    const journal = memoryJournal(() => clock);
    journal.note(1, 'messages-read', 'page-a');
    journal.note(1, 'new-message', 'page-a');
    journal.note(1, 'new-message', 'page-b');
    journal.note(1, 'story-ready');
    clock += 1;
    expect(await journal.since(1, 2_000_000, 'page-a')).toEqual(['new-message', 'story-ready']);
    expect(await journal.since(1, 2_000_000, 'page-b')).toEqual([
      'messages-read',
      'new-message',
      'story-ready',
    ]);
    expect(await journal.since(1, 2_000_000)).toEqual(['messages-read', 'new-message', 'story-ready']);
    await journal.close();
  });

  it('cannot say what went by before its window: null, not an empty answer', async () => {
    let clock = 5_000_000;
    const journal = memoryJournal(() => clock);
    journal.note(1, 'new-message');
    clock += JOURNAL_WINDOW_MS + 1;
    expect(await journal.since(1, 5_000_000)).toBeNull();
    expect(await journal.since(1, clock - JOURNAL_WINDOW_MS)).toEqual([]);
    await journal.close();
  });
});

const hasRedis = await redisReachable('event journal (Redis)');

describe.runIf(hasRedis)('redisJournal', () => {
  const redis = new Redis(REDIS_URL);
  const prefix = `kt${randomBytes(4).toString('hex')}:journal:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('tells a node what another node sent, once that node has written its notes', async () => {
    const sender = redisJournal(redis, prefix);
    const other = redisJournal(redis, prefix);
    const before = Date.now();
    sender.note(7, 'new-message');
    sender.note(7, 'messages-read', 'page-7');
    sender.note(8, 'story-ready');
    // The sender asks: its own pending notes are written first.
    expect(await sender.since(7, before)).toEqual(['messages-read', 'new-message']);
    expect(await other.since(8, before)).toEqual(['story-ready']);
    expect(await other.since(7, before, 'page-7')).toEqual(['new-message']);
    expect(await other.since(7, Date.now() + 1)).toEqual([]);
    // The hash goes with the window.
    const ttl = await redis.pttl(`${prefix}7`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(JOURNAL_WINDOW_MS);
    expect(await other.since(7, Date.now() - JOURNAL_WINDOW_MS - 1000)).toBeNull();
    await sender.close();
    await other.close();
  });
});
