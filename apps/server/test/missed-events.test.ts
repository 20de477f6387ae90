import type { AuthSession, MissedEvents, SocketAuth } from '@kadr/contract';
import { apiUrl, messengerRoutes, PAGE_HEADER } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_WINDOW_MS } from '../src/realtime/event-journal.ts';
import { MISSED_MARGIN_MS } from '../src/realtime/gateway.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, connected, connectSocket, nextEvent } from './sockets.ts';

/**
 * A page's first socket connection (issue 33): the handshake says how long ago the page's data began to
 * load, and the server answers which events went to the user since then — those the page may have missed
 * while it had answers but no socket yet.
 */

let t: TestApp;
let url: string;
let m: ReturnType<typeof messenger>;
let reader: AuthSession;
let writer: AuthSession;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  m = messenger(t.app);
  reader = await registerUser(t.app);
  writer = await registerUser(t.app);
});
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t.close();
});

/** Connects with `auth`; `missed` is listened for from the start (it may come with the connection). */
async function firstConnection({ token, ...auth }: SocketAuth) {
  const s = connectSocket(url, token, open, auth);
  const heard: MissedEvents[] = [];
  s.on('missed', (e) => heard.push(e));
  await connected(s);
  return {
    socket: s,
    heard,
    missed: () =>
      heard.length > 0 ? Promise.resolve(heard[0] as MissedEvents) : nextEvent<MissedEvents>(s, 'missed'),
  };
}

describe('what a page missed before its first connection', () => {
  it('names the events sent to the user since the page’s data began to load, and nothing older', async () => {
    const pageStart = Date.now();
    // The page has its answers; its socket is not up yet when the message arrives.
    await m.sent(writer.access_token, reader.user.id, 'пока сокета нет');
    const page = await firstConnection({ token: reader.access_token, age: Date.now() - pageStart });
    expect(await page.missed()).toEqual({ events: ['new-message'], all: false });

    // A page that began to load after it (past the margin the server allows for the handshake's travel):
    // nothing went by.
    await new Promise((resolve) => setTimeout(resolve, MISSED_MARGIN_MS + 100));
    const later = await firstConnection({ token: reader.access_token, age: 0 });
    expect(await later.missed()).toEqual({ events: [], all: false });
  });

  it('says «anything» for a page older than the server remembers, and nothing to a reconnection', async () => {
    const old = await firstConnection({ token: reader.access_token, age: JOURNAL_WINDOW_MS + 60_000 });
    expect(await old.missed()).toEqual({ events: [], all: true });

    // Without `age` (a reconnection, which refetches everything anyway) no answer comes: the marker
    // message arrives and no `missed` before it.
    const again = await firstConnection({ token: reader.access_token });
    const marker = nextEvent(again.socket, 'new-message');
    await m.sent(writer.access_token, reader.user.id, 'маркер');
    await marker;
    expect(again.heard).toEqual([]);
  });

  it('tells each user only their own events', async () => {
    const pageStart = Date.now();
    await m.sent(reader.access_token, writer.user.id, 'другому');
    const bystander = await registerUser(t.app);
    const s = await firstConnection({ token: bystander.access_token, age: Date.now() - pageStart });
    expect(await s.missed()).toEqual({ events: [], all: false });
  });

  it('leaves out what the page did itself: its writes name it, and so does its handshake', async () => {
    // Users of their own: nothing the earlier tests sent them can fall into this page's time.
    const [reader, writer] = [await registerUser(t.app), await registerUser(t.app)];
    const pageStart = Date.now();
    const page = 'page0123456789abcdef';
    // The page sends a message over HTTP before its socket is up; the echo to its own user is its own doing.
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(messengerRoutes.send),
      headers: { ...bearer(reader.access_token), [PAGE_HEADER]: page },
      payload: { other_user_id: writer.user.id, content: 'сам', temp_id: 'own-1' },
    });
    expect(res.statusCode).toBe(200);
    const age = () => Date.now() - pageStart;
    const same = await firstConnection({ token: reader.access_token, age: age(), page });
    expect(await same.missed()).toEqual({ events: [], all: false });
    // Another page of the same user (another tab, another device) did miss it.
    const other = await firstConnection({
      token: reader.access_token,
      age: age(),
      page: 'another-page-0001',
    });
    expect(await other.missed()).toEqual({ events: ['new-message'], all: false });
    // A page id that is not one (too short, odd characters) names no page.
    const odd = await firstConnection({ token: reader.access_token, age: age(), page: 'x' });
    expect(await odd.missed()).toEqual({ events: ['new-message'], all: false });
  });
});
