import type { ColumnType, Generated } from 'kysely';

export type AttachmentStatus = 'processing' | 'ready' | 'failed';

// Columns of the 0600 migrations join the shared Database type from here (see livekit/tables.ts).
declare module '../../db/schema.ts' {
  interface PostCommentsTable {
    /** The comment this one answers, on the same post (migration 1310-media-comment-replies). */
    parent_id: ColumnType<number | null, number | null | undefined, never>;
  }
  interface MessageFilesTable {
    /** Media attachments are processed by the job queue after upload (migration 0600-mediapipe-attachment-jobs). */
    status: Generated<AttachmentStatus>;
  }
}
