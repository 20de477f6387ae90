import {
  ErrorText,
  Limits,
  type Notification,
  type NotificationGroup,
  type NotificationsResponse,
} from '@kadr/contract';
import { errors } from '../../lib/errors.ts';
import type { Events } from '../../lib/events.ts';
import type { Gateway } from '../../realtime/gateway.ts';
import type { NotificationsCache } from './cache.ts';
import type { NewNotification, NotificationRow, NotificationsRepository } from './repository.ts';
import type { NotificationKind } from './tables.ts';
import { GROUP_OF, GROUP_ORDER, GROUP_TITLES, notificationText } from './texts.ts';

export interface Clock {
  now(): Date;
}

/** Spec §9: the notification event cache keeps an event 5 minutes and is cleared each minute. */
export const EVENT_WINDOW_MS = 5 * 60_000;
export const EVENT_SWEEP_MS = 60_000;

function url(row: Pick<NotificationRow, 'post_id' | 'conversation_id' | 'username'>): string {
  if (row.post_id !== null) return `/media/${row.post_id}`;
  if (row.conversation_id !== null) return '/messenger';
  return `/${row.username}`;
}

export function toNotification(row: NotificationRow): Notification {
  const chatKey =
    row.conversation_id !== null && (row.chat_type === 'group' || row.chat_type === 'channel')
      ? `${row.chat_type}:${row.conversation_id}`
      : null;
  return {
    id: row.id,
    type: row.type,
    text: notificationText({
      type: row.type,
      name: row.name,
      others: row.others_count,
      place: row.place,
      snippet: row.snippet,
      chatTitle: row.chat_title,
    }),
    created_at: new Date(row.created_at).toISOString(),
    is_read: row.is_read,
    username: row.username,
    display_name: row.name,
    preview_url: row.post_preview ?? row.avatar_url,
    post_id: row.post_id,
    others_count: row.others_count,
    url: url(row),
    chat_key: chatKey,
  };
}

const total = (unread: Record<string, number>) => Object.values(unread).reduce((a, b) => a + b, 0);

/**
 * Storing, listing and reading notifications. `notify` is what the event listeners call: it drops
 * one's own actions and repeats within the event window, stores (or joins an aggregated row), and
 * tells the recipient's devices and the domain-event listeners (web push). A type the recipient turned
 * off in the app (`in_app: false`) is neither stored nor sent to their devices; web push still hears it
 * and follows the type's own `push` switch.
 */
export function notificationsService(deps: {
  repo: NotificationsRepository;
  gateway: Gateway;
  events: Events;
  clock: Clock;
  cache: NotificationsCache;
  /** Whether the user wants this type inside the app (their settings, cached by the settings module). */
  inApp: (userId: number, type: NotificationKind) => Promise<boolean>;
  /** The reach policy: nothing from someone walled off by a block, either way. */
  canNotify?: (from: number, to: number) => Promise<boolean>;
}) {
  const { repo, gateway, events, clock, cache, inApp, canNotify } = deps;
  // This node's view of the event cache: a hit skips the database; the database row decides otherwise.
  const recent = new Map<string, number>();

  async function firstWithinWindow(key: string): Promise<boolean> {
    const now = clock.now();
    const seen = recent.get(key);
    if (seen !== undefined && now.getTime() - seen < EVENT_WINDOW_MS) return false;
    recent.set(key, now.getTime());
    return repo.claimEvent(key, now, new Date(now.getTime() - EVENT_WINDOW_MS));
  }

  async function unreadTotal(userId: number) {
    return total(await repo.unread(userId));
  }

  /** Off in the app: the same sentence and link, built without a row, handed to web push only. */
  async function pushOnly(n: NewNotification) {
    const about = await repo.about(n.actorId, n.conversationId ?? null);
    if (!about) return;
    const place = n.place ?? '';
    events.emit('notification.created', {
      userId: n.userId,
      notificationId: null,
      type: n.type,
      text: notificationText({
        type: n.type,
        name: about.name,
        others: 0,
        place,
        snippet: n.snippet ?? '',
        chatTitle: about.chat_title,
      }),
      url: url({
        post_id: n.postId ?? null,
        conversation_id: n.conversationId ?? null,
        username: about.username,
      }),
    });
  }

  return {
    /** Stores a notification unless it is the recipient's own action or a repeat of `onceKey` within 5 min. */
    async notify(n: NewNotification, onceKey?: string): Promise<Notification | null> {
      if (n.userId === n.actorId) return null;
      if (canNotify && !(await canNotify(n.actorId, n.userId))) return null;
      if (onceKey && !(await firstWithinWindow(`${n.userId}:${onceKey}`))) return null;
      if (!(await inApp(n.userId, n.type))) {
        await pushOnly(n);
        return null;
      }
      const id = await repo.store(n, clock.now());
      await cache.changed([n.userId]);
      const row = await repo.one(id);
      if (!row) return null;
      const notification = toNotification(row);
      const unread_total = await unreadTotal(n.userId);
      gateway.emitToUser(n.userId, 'notification-created', { notification, unread_total });
      events.emit('notification.created', {
        userId: n.userId,
        notificationId: id,
        type: notification.type,
        text: notification.text,
        url: notification.url,
      });
      return notification;
    },

    async list(userId: number, offset: number, limit: number): Promise<NotificationsResponse> {
      const load = async (): Promise<NotificationsResponse> => {
        const [rows, unread] = await Promise.all([repo.page(userId, offset, limit + 1), repo.unread(userId)]);
        const groups = new Map<string, NotificationGroup>(
          GROUP_ORDER.map((key) => [
            key,
            { key, title: GROUP_TITLES[key], items: [], unread_count: unread[key] ?? 0 },
          ]),
        );
        for (const row of rows.slice(0, limit))
          groups.get(GROUP_OF[row.type])!.items.push(toNotification(row));
        return { groups: [...groups.values()], unread_total: total(unread), has_more: rows.length > limit };
      };
      // The bell's page (the first, at the spec's size) is read through the cache; other pages are not.
      return offset === 0 && limit === Limits.notificationsPage ? cache.firstPages.get(userId, load) : load();
    },

    async read(userId: number, id: number) {
      if (!(await repo.markRead(userId, id))) throw errors.notFound(ErrorText.notificationNotFound);
      await cache.changed([userId]);
      const unread_total = await unreadTotal(userId);
      gateway.emitToUser(userId, 'notifications-read', { ids: [id], all: false, unread_total });
      return { id, is_read: true, unread_total };
    },

    async readAll(userId: number) {
      await repo.markAllRead(userId);
      await cache.changed([userId]);
      gateway.emitToUser(userId, 'notifications-read', { ids: [], all: true, unread_total: 0 });
      return { unread_total: 0 };
    },

    /** A deleted post's notifications went with it (foreign key); the author's devices hear the new count. */
    async postDeleted(authorId: number) {
      await cache.changed([authorId]);
      const unread_total = await unreadTotal(authorId);
      gateway.emitToUser(authorId, 'notifications-read', { ids: [], all: false, unread_total });
    },

    /** The minute sweep of the event cache (this node's map and the shared table). */
    async sweep() {
      const since = clock.now().getTime() - EVENT_WINDOW_MS;
      for (const [key, at] of recent) if (at < since) recent.delete(key);
      await repo.sweepEvents(new Date(since));
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
