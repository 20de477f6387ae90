import type { ModerationNotice } from './schemas.ts';

export interface ModerationQueueChangedEvent {
  /** The queue entry that was created, grew or was acted on. */
  item_id: number;
}

/**
 * A person was suspended (`suspended` true) or the suspension was lifted (false): while it lasts their
 * messages and comments are left out everywhere, so open screens drop them (or fetch them back).
 */
export interface UserSuspensionChangedEvent {
  user_id: number;
  suspended: boolean;
}

export type ModerationWatchAck = { ok: true } | { error: string; code: string };

export interface ModerationServerEvents {
  /** To the reporter's devices: their report led to an action. */
  'moderation-notice': (notice: ModerationNotice) => void;
  /** To moderators watching the queue: refetch it. */
  'moderation-queue-changed': (event: ModerationQueueChangedEvent) => void;
  /**
   * To everyone who shares a chat with the person (personal peers, group members, channel subscribers),
   * on every node: their open chats drop the person's messages now, or fetch them back when lifted.
   */
  'user-suspension-changed': (event: UserSuspensionChangedEvent) => void;
}

export interface ModerationClientEvents {
  /** A moderator's screen asks for live queue changes; anyone else is refused (`forbidden`). */
  'moderation:watch': (ack: (answer: ModerationWatchAck) => void) => void;
}
