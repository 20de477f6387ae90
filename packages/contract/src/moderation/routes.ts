import { ErrorBody } from '../errors.ts';
import { defineRoute } from '../route.ts';
import {
  AuditQuery,
  AuditResponse,
  EndStreamBody,
  EndStreamResponse,
  GrantBody,
  GrantResponse,
  ItemActionBody,
  ItemActionResponse,
  ItemIdParams,
  ModerationMe,
  ModeratorsResponse,
  NoticesReadResponse,
  NoticesResponse,
  QueueQuery,
  QueueResponse,
  ReportBody,
  ReportResponse,
} from './schemas.ts';

const mod = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody } as const;

/** Reports from everyone; the queue, actions, audit log and the role for moderators only. */
export const moderationRoutes = {
  report: defineRoute({
    method: 'POST',
    path: '/moderation/reports',
    access: 'user',
    who: 'anyone who can see the item (not its author)',
    summary:
      'One report per reporter per item; the item is hidden from the reporter from then on. Reports on one item join one queue entry.',
    body: ReportBody,
    response: { 200: ReportResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
  }),
  me: defineRoute({
    method: 'GET',
    path: '/moderation/me',
    access: 'user',
    response: { 200: ModerationMe, 401: ErrorBody },
  }),
  notices: defineRoute({
    method: 'GET',
    path: '/moderation/notices',
    access: 'user',
    summary: "The caller's outcomes of their reports, newest first.",
    response: { 200: NoticesResponse, 401: ErrorBody },
  }),
  readNotices: defineRoute({
    method: 'POST',
    path: '/moderation/notices/read',
    access: 'user',
    response: { 200: NoticesReadResponse, 401: ErrorBody },
  }),
  queue: defineRoute({
    method: 'GET',
    path: '/moderation/queue',
    access: 'user',
    who: 'moderator',
    summary:
      'Reported items, most-reported and newest first (open), or the ones already dealt with (closed).',
    query: QueueQuery,
    response: { 200: QueueResponse, ...mod },
  }),
  act: defineRoute({
    method: 'POST',
    path: '/moderation/items/:id/actions',
    access: 'user',
    who: 'moderator',
    summary:
      'Dismiss, remove or restore the content, suspend or unsuspend its author; written to the audit log.',
    params: ItemIdParams,
    body: ItemActionBody,
    response: { 200: ItemActionResponse, ...mod, 404: ErrorBody, 409: ErrorBody },
  }),
  endStream: defineRoute({
    method: 'POST',
    path: '/moderation/streams/:id/end',
    access: 'user',
    who: 'moderator',
    params: ItemIdParams,
    body: EndStreamBody,
    response: { 200: EndStreamResponse, ...mod, 404: ErrorBody },
  }),
  audit: defineRoute({
    method: 'GET',
    path: '/moderation/audit',
    access: 'user',
    who: 'moderator',
    summary: 'Every moderator action, newest first; entries are never changed or deleted.',
    query: AuditQuery,
    response: { 200: AuditResponse, ...mod },
  }),
  moderators: defineRoute({
    method: 'GET',
    path: '/moderation/moderators',
    access: 'user',
    who: 'moderator',
    response: { 200: ModeratorsResponse, ...mod },
  }),
  grant: defineRoute({
    method: 'POST',
    path: '/moderation/moderators',
    access: 'user',
    who: 'moderator',
    summary: 'Makes another account a moderator.',
    body: GrantBody,
    response: { 200: GrantResponse, ...mod, 404: ErrorBody },
  }),
};
