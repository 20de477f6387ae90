import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';

// Issue 33: with the insert queue backed up, a send is refused at once (429 server_busy, Retry-After),
// never queued for seconds, and a refused send stores nothing. A zero wait makes any queueing count.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_SEND_QUEUE_MAX_WAIT_MS: '0', RATE_LIMITS: 'message.send=10000/1m' });
});
afterAll(() => t.close());

it('refuses sends with 429 server_busy while the insert queue waits, and stores only the accepted ones', async () => {
  const a = await registerUser(t.app);
  const b = await registerUser(t.app);
  const m = messenger(t.app);
  await m.sent(a.access_token, b.user.id, 'first: the pair is known');
  const answers = await Promise.all(
    Array.from({ length: 80 }, (_, i) => m.send(a.access_token, b.user.id, `burst ${i}`)),
  );
  const statuses = answers.map((r) => r.statusCode);
  expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  const refused = answers.filter((r) => r.statusCode === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.json()).toMatchObject({
      code: 'server_busy',
      error: 'Сервер сейчас перегружен. Сообщение отправится чуть позже',
    });
    expect(r.headers['retry-after']).toBe('1');
  }
  const accepted = answers.filter((r) => r.statusCode === 200).length;
  const stored = await m.conversation(a.access_token, b.user.id, { limit: 100 });
  expect(stored.messages.filter((x) => x.content.startsWith('burst ')).length).toBe(accepted);
});
