import type { ModerationPreview, ReportReason } from '@kadr/contract';

/**
 * One reportable kind: how moderation reaches it without knowing the capability's tables beyond what is
 * written here. Removal keeps what it took away (`snapshot`) so a restore can put it back.
 */
export interface TargetResolver {
  /** The author (the user themselves, a group's owner) when `viewer` can see the item; null otherwise. */
  visibleTo(targetId: number, viewer: number): Promise<{ authorId: number | null } | null>;
  /** The reporter no longer sees it, where the capability keeps a per-person hidden mark. */
  hideFor?(targetId: number, reporterId: number, reason: ReportReason): Promise<void>;
  /** The content as the queue shows it in place; null when it no longer exists. */
  preview(targetId: number): Promise<ModerationPreview | null>;
  /** Removes it for everyone; what it returns is kept for `restore`. Null: nothing to remove (gone already). */
  remove?(targetId: number, moderatorId: number): Promise<Record<string, unknown> | null>;
  restore?(targetId: number, snapshot: Record<string, unknown>): Promise<void>;
}

/** A text cut for the queue. */
export function clip(text: string, chars = 500): string {
  const all = [...text];
  return all.length > chars ? `${all.slice(0, chars - 1).join('')}…` : text;
}
