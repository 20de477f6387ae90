import { STORY_REPORT_REASONS } from '../stories/constants.ts';

/**
 * Everything a person can report. Each kind has one resolver on the server (who may see it, who wrote it,
 * its preview for the queue, how it is removed and restored).
 */
export const MODERATION_TARGET_KINDS = [
  'post',
  'comment',
  'story',
  'message',
  'live_chat_message',
  'user',
  'group',
  'channel',
] as const;

/** The reasons a report gives: the story report's reasons, now shared by every kind. */
export const REPORT_REASONS = STORY_REPORT_REASONS;

/** What a moderator may do with a queue entry. */
export const MODERATION_ACTIONS = ['dismiss', 'remove', 'restore', 'suspend', 'unsuspend'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Everything the audit log records (the item actions, plus granting the role and ending a stream). */
export const AUDIT_ACTIONS = [...MODERATION_ACTIONS, 'grant', 'end_stream'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Suspension periods offered in the app, in days; `null` is for good. */
export const SUSPENSION_DAYS = [1, 7, 30] as const;

export const ModerationLimits = {
  /** The optional comment a reporter adds. */
  reportComment: 500,
  /** Why a moderator acted, as the audit log keeps it. */
  actionReason: 500,
  /** The longest suspension with an end (a longer one is "for good"). */
  suspensionDaysMax: 3650,
  queuePage: 30,
  auditPage: 50,
} as const;

/** Where removed content stood, as every reader sees it. */
export const REMOVED_BY_MODERATOR = 'Удалено модератором';
