import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, profileRoutes, settingsRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DomainEvents } from '../src/lib/events.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { notificationsApi, seedPost } from './notifications-fixtures.ts';

let t: TestApp;
let n: ReturnType<typeof notificationsApi>;
let anna: AuthSession;
let boris: AuthSession;
let vera: AuthSession;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  n = notificationsApi(t.app);
  anna = await registerUser(t.app, undefined, 'Анна');
  boris = await registerUser(t.app, undefined, 'Борис');
  vera = await registerUser(t.app, undefined, 'Вера');
}, 240_000);
afterAll(async () => {
  await t?.close();
}, 180_000);

const types = (who: AuthSession, patch: object) =>
  n.call(who.access_token, 'PATCH', apiUrl(settingsRoutes.update), { notifications: { types: patch } });

/** What the recipient's devices and the events hub heard while `act` ran. */
async function heard(userId: number, act: () => Promise<unknown>) {
  const sockets = vi.spyOn(t.app.ctx.gateway, 'emitToUser');
  const events: DomainEvents['notification.created'][] = [];
  const off = t.app.ctx.events.on('notification.created', (e) => {
    if (e.userId === userId) events.push(e);
  });
  try {
    await act();
    await t.app.ctx.events.idle();
    const socketEvents = sockets.mock.calls
      .filter(([to, name]) => to === userId && name === 'notification-created')
      .map(([, , payload]) => payload);
    return { socketEvents, events };
  } finally {
    off();
    sockets.mockRestore();
  }
}

describe('in-app notifications follow the per-type setting', () => {
  it('a type off in the app stores nothing, tells no device and counts nothing; push still hears it', async () => {
    const patch = await types(anna, { like: { in_app: false }, follow: { in_app: false } });
    expect(patch.statusCode, patch.body).toBe(200);
    const post = await seedPost(t.db, anna.user.id);

    const like = await heard(anna.user.id, () =>
      n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post })),
    );
    expect(like.socketEvents).toEqual([]);
    // Web push reads its own `push` switch (still on) from this event.
    expect(like.events).toEqual([
      {
        userId: anna.user.id,
        notificationId: null,
        type: 'like',
        text: 'Борис оценил(а) вашу публикацию',
        url: `/media/${post}`,
      },
    ]);

    const follow = await heard(anna.user.id, () =>
      n.call(vera.access_token, 'POST', apiUrl(profileRoutes.follow, { username: anna.user.username })),
    );
    expect(follow.socketEvents).toEqual([]);
    expect(follow.events).toMatchObject([
      { type: 'follow', notificationId: null, url: `/${vera.user.username}` },
    ]);

    expect(await n.items(anna.access_token)).toEqual([]);
    expect((await n.list(anna.access_token)).unread_total).toBe(0);
    const count = await t.db.kysely
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .where('user_id', '=', anna.user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.rows)).toBe(0);
  });

  it('other types still arrive, and turning the type back on stores the next one', async () => {
    const post = await seedPost(t.db, anna.user.id);
    const comment = await heard(anna.user.id, () =>
      n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.comment, { id: post }), {
        comment_text: 'Красиво',
      }),
    );
    expect(comment.socketEvents).toHaveLength(1);
    expect(comment.events[0]?.notificationId).toEqual(expect.any(Number));

    expect((await types(anna, { like: { in_app: true } })).statusCode).toBe(200);
    const like = await heard(anna.user.id, () =>
      n.call(vera.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post })),
    );
    expect(like.socketEvents).toMatchObject([{ unread_total: 2, notification: { type: 'like' } }]);
    const items = await n.items(anna.access_token);
    expect(items.map((x) => x.type).sort()).toEqual(['comment', 'like']);
    expect((await n.list(anna.access_token)).unread_total).toBe(2);
  });

  it('another user’s setting changes nothing for the recipient', async () => {
    expect((await types(boris, { like: { in_app: false } })).statusCode).toBe(200);
    const post = await seedPost(t.db, vera.user.id);
    const like = await heard(vera.user.id, () =>
      n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post })),
    );
    expect(like.socketEvents).toHaveLength(1);
  });
});
