import type { AuthSession, NotificationCreatedEvent, NotificationsReadEvent } from '@kadr/contract';
import { apiUrl, mediaRoutes, notificationsRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvents } from '../src/lib/events.ts';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, publish } from './media-helpers.ts';
import { notificationsApi, seedPost } from './notifications-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let n: ReturnType<typeof notificationsApi>;
let anna: AuthSession;
let boris: AuthSession;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  n = notificationsApi(t.app);
  anna = await registerUser(t.app, undefined, 'Анна');
  boris = await registerUser(t.app, undefined, 'Борис');
}, 240_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t?.close();
});

describe('notifications over the socket and the events hub', () => {
  it('a new notification and the new unread_total reach every device of the recipient', async () => {
    const phone = await openSocket(url, anna.access_token, open);
    const laptop = await openSocket(url, anna.access_token, open);
    const pushed: DomainEvents['notification.created'][] = [];
    const off = t.app.ctx.events.on('notification.created', (e) => {
      pushed.push(e);
    });
    try {
      const post = await seedPost(t.db, anna.user.id);
      const onPhone = nextEvent<NotificationCreatedEvent>(phone, 'notification-created', undefined, 20_000);
      const onLaptop = nextEvent<NotificationCreatedEvent>(laptop, 'notification-created', undefined, 20_000);
      await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post }));
      for (const event of [await onPhone, await onLaptop]) {
        expect(event.unread_total).toBe(1);
        expect(event.notification).toMatchObject({
          type: 'like',
          text: 'Борис оценил(а) вашу публикацию',
          post_id: post,
          is_read: false,
        });
      }
      expect(pushed).toEqual([
        {
          userId: anna.user.id,
          notificationId: (await onPhone).notification.id,
          type: 'like',
          text: 'Борис оценил(а) вашу публикацию',
          url: `/media/${post}`,
        },
      ]);

      const read = nextEvent<NotificationsReadEvent>(laptop, 'notifications-read', undefined, 20_000);
      await n.call(anna.access_token, 'POST', apiUrl(notificationsRoutes.readAll));
      expect(await read).toEqual({ ids: [], all: true, unread_total: 0 });
    } finally {
      off();
    }
  });

  it("the actor's own devices hear nothing of their action", async () => {
    const mine = await openSocket(url, boris.access_token, open);
    const heard: unknown[] = [];
    mine.on('notification-created', (e) => heard.push(e));
    const post = await seedPost(t.db, boris.user.id);
    await n.call(boris.access_token, 'POST', apiUrl(mediaRoutes.like, { id: post }));
    // A follow to Anna afterwards arrives on her side: when it has, Boris's like was long processed.
    const annaSocket = await openSocket(url, anna.access_token, open);
    const follow = nextEvent<NotificationCreatedEvent>(annaSocket, 'notification-created', undefined, 20_000);
    await n.call(boris.access_token, 'POST', apiUrl(profileRoutes.follow, { username: anna.user.username }));
    expect((await follow).notification.type).toBe('follow');
    expect(heard).toEqual([]);
  });

  it('a mention in a published caption notifies once the post is finished', async () => {
    const post = await publish(t.app, boris.access_token, [
      { field: 'caption', data: `Закат с @${anna.user.username}` },
      { field: 'files', filename: 'b.jpg', contentType: 'image/jpeg', data: await brightImage(3) },
    ]);
    await t.app.ctx.events.idle();
    const mention = (await n.items(anna.access_token)).find((x) => x.type === 'mention');
    expect(mention).toMatchObject({
      text: `Борис упомянул(а) вас в публикации: «Закат с @${anna.user.username}»`,
      post_id: post.id,
      url: `/media/${post.id}`,
    });
    expect(mention!.preview_url).toMatch(/\S/);
  }, 120_000);
});
