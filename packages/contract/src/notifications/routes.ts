import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  NotificationIdParams,
  NotificationReadResponse,
  NotificationsQuery,
  NotificationsReadAllResponse,
  NotificationsResponse,
} from './schemas.ts';

/** Spec §7.3 (paths exact). Only the caller's own notifications exist for them: another's id is 404. */
export const notificationsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/notifications',
    access: 'user',
    summary:
      'Newest first, `limit` (20) from `offset`, sorted into the groups engagement, follows, comments.',
    query: NotificationsQuery,
    response: { 200: NotificationsResponse, 400: ErrorBody, 401: ErrorBody },
  }),
  read: defineRoute({
    method: 'POST',
    path: '/notifications/:id/read',
    access: 'user',
    who: 'the notification’s recipient',
    params: NotificationIdParams,
    response: { 200: NotificationReadResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
  readAll: defineRoute({
    method: 'POST',
    path: '/notifications/read-all',
    access: 'user',
    response: { 200: NotificationsReadAllResponse, 401: ErrorBody },
  }),
};
