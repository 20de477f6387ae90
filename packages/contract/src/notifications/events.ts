import type { Notification } from './schemas.ts';

export interface NotificationCreatedEvent {
  /** The stored (or re-aggregated: same id, new text) notification. */
  notification: Notification;
  unread_total: number;
}

export interface NotificationsReadEvent {
  /** The notifications now read (empty with `all`). */
  ids: number[];
  all: boolean;
  unread_total: number;
}

export interface NotificationServerEvents {
  /** To the recipient's devices: a new notification, or an aggregated one updated ('Анна и ещё 3 …'). */
  'notification-created': (event: NotificationCreatedEvent) => void;
  /** To the recipient's devices: some or all were marked read, or removed with their post. */
  'notifications-read': (event: NotificationsReadEvent) => void;
}
