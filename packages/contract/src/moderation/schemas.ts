import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import type {
  AUDIT_ACTIONS,
  MODERATION_ACTIONS,
  MODERATION_TARGET_KINDS,
  REPORT_REASONS,
} from './constants.ts';
import { ModerationLimits } from './constants.ts';

export const ModerationTargetKind = Type.Union([
  Type.Literal('post'),
  Type.Literal('comment'),
  Type.Literal('story'),
  Type.Literal('message'),
  Type.Literal('live_chat_message'),
  Type.Literal('user'),
  Type.Literal('group'),
  Type.Literal('channel'),
]) satisfies { anyOf: { const: (typeof MODERATION_TARGET_KINDS)[number] }[] };
export type ModerationTargetKind = Static<typeof ModerationTargetKind>;

export const ReportReason = Type.Union([
  Type.Literal('spam'),
  Type.Literal('violence'),
  Type.Literal('nudity'),
  Type.Literal('hate'),
  Type.Literal('other'),
]) satisfies { anyOf: { const: (typeof REPORT_REASONS)[number] }[] };
export type ReportReason = Static<typeof ReportReason>;

export const ModerationActionName = Type.Union([
  Type.Literal('dismiss'),
  Type.Literal('remove'),
  Type.Literal('restore'),
  Type.Literal('suspend'),
  Type.Literal('unsuspend'),
]) satisfies { anyOf: { const: (typeof MODERATION_ACTIONS)[number] }[] };

export const AuditActionName = Type.Union([
  Type.Literal('dismiss'),
  Type.Literal('remove'),
  Type.Literal('restore'),
  Type.Literal('suspend'),
  Type.Literal('unsuspend'),
  Type.Literal('grant'),
  Type.Literal('end_stream'),
]) satisfies { anyOf: { const: (typeof AUDIT_ACTIONS)[number] }[] };

/** `POST /moderation/reports`. */
export const ReportBody = Type.Object(
  {
    kind: ModerationTargetKind,
    target_id: Id,
    reason: ReportReason,
    comment: Type.Optional(Type.String({ maxLength: ModerationLimits.reportComment })),
  },
  { additionalProperties: false },
);
export type ReportBody = Static<typeof ReportBody>;
export const ReportResponse = Type.Object({ reported: Type.Boolean() });

/** `GET /moderation/me`: whether the caller moderates (the web shows the entry only then). */
export const ModerationMe = Type.Object({ is_moderator: Type.Boolean() });

export const ModerationUser = Type.Object({
  id: Id,
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
});
export type ModerationUser = Static<typeof ModerationUser>;

/** The reported content as the queue shows it in place. */
export const ModerationPreview = Type.Object({
  /** A short human title: «Публикация», «Сообщение в группе «…»». */
  title: Type.String(),
  /** The text (caption, comment, message, chat line, bio). */
  text: Type.String(),
  /** A picture of it (the photo or the video's poster, an avatar). */
  image_url: Nullable(Type.String()),
  /** Where a moderator can open it in the app. */
  url: Nullable(Type.String()),
  /** A message's neighbours (up to two before and one after), oldest first. */
  context: Type.Array(Type.Object({ author: Type.String(), text: Type.String(), reported: Type.Boolean() })),
});
export type ModerationPreview = Static<typeof ModerationPreview>;

export const ModerationItemStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('dismissed'),
  Type.Literal('actioned'),
]);

export const ModerationItem = Type.Object({
  id: Id,
  kind: ModerationTargetKind,
  target_id: Id,
  status: ModerationItemStatus,
  /** The person whose content it is (the user themselves for a user report; the owner of a group or channel). */
  author: Nullable(ModerationUser),
  /** Null when the content no longer exists. */
  preview: Nullable(ModerationPreview),
  reports_count: Type.Integer(),
  /** How many reports gave each reason. */
  reasons: Type.Array(Type.Object({ reason: ReportReason, count: Type.Integer() })),
  /** The reporters' comments, newest first (at most 5). */
  comments: Type.Array(Type.String()),
  last_reported_at: IsoDateTime,
  /** The content was removed by a moderator (restore brings it back). */
  removed: Type.Boolean(),
  /** The author's suspension, if any: until when (null for good). */
  author_suspended: Type.Boolean(),
  author_suspended_until: Nullable(IsoDateTime),
  /** Removal is possible for this kind (a user, group or channel is dealt with by suspending its owner). */
  removable: Type.Boolean(),
});
export type ModerationItem = Static<typeof ModerationItem>;

export const QueueQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')], { default: 'open' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: ModerationLimits.queuePage })),
});
export const QueueResponse = Type.Object({ items: Type.Array(ModerationItem), has_more: Type.Boolean() });
export type QueueResponse = Static<typeof QueueResponse>;

export const ItemIdParams = Type.Object({ id: Id });

/** `POST /moderation/items/:id/actions`: `days` only with `suspend` (omitted or null: for good). */
export const ItemActionBody = Type.Object(
  {
    action: ModerationActionName,
    reason: Type.Optional(Type.String({ maxLength: ModerationLimits.actionReason })),
    days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: ModerationLimits.suspensionDaysMax }))),
  },
  { additionalProperties: false },
);
export type ItemActionBody = Static<typeof ItemActionBody>;
export const ItemActionResponse = Type.Object({ item: ModerationItem });

export const EndStreamBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: ModerationLimits.actionReason })) },
  { additionalProperties: false },
);
export const EndStreamResponse = Type.Object({ ended: Type.Boolean() });

export const AuditEntry = Type.Object({
  id: Id,
  moderator: Nullable(ModerationUser),
  action: AuditActionName,
  kind: Nullable(ModerationTargetKind),
  target_id: Nullable(Type.Integer()),
  /** The person the action concerned (author, suspended or granted account). */
  subject: Nullable(ModerationUser),
  reason: Type.String(),
  /** Until when a suspension runs (null for good or for other actions). */
  until: Nullable(IsoDateTime),
  created_at: IsoDateTime,
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: ModerationLimits.auditPage })),
});
export const AuditResponse = Type.Object({ entries: Type.Array(AuditEntry), has_more: Type.Boolean() });
export type AuditResponse = Static<typeof AuditResponse>;

export const ModeratorsResponse = Type.Object({
  moderators: Type.Array(
    Type.Object({
      user: ModerationUser,
      source: Type.Union([Type.Literal('config'), Type.Literal('granted')]),
    }),
  ),
});
export const GrantBody = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const GrantResponse = Type.Object({ user: ModerationUser });

/** What a reporter hears back when their report led to an action (the moderator is never named). */
export const ModerationNotice = Type.Object({
  id: Id,
  kind: ModerationTargetKind,
  text: Type.String(),
  created_at: IsoDateTime,
  is_read: Type.Boolean(),
});
export type ModerationNotice = Static<typeof ModerationNotice>;
export const NoticesResponse = Type.Object({ notices: Type.Array(ModerationNotice) });
export type NoticesResponse = Static<typeof NoticesResponse>;
export const NoticesReadResponse = Type.Object({ ok: Type.Literal(true) });
