import type { Post, ProcessingStage } from '@kadr/contract';

/** Post upload (spec §4.5): a union keyed by status; the form is usable in idle and failed only. */
export type UploadStatus =
  | { status: 'idle' }
  | { status: 'uploading'; progress: number }
  /** `stage` and `progress` (0–100, overall) as the server reports them; absent until its first report. */
  | { status: 'processing'; postId: number; stage?: ProcessingStage; progress?: number }
  | { status: 'done'; post: Post }
  | { status: 'failed'; message: string };

export const UPLOAD_CLOSE_DELAY_MS = 2000;

export function formEnabled(state: UploadStatus): boolean {
  switch (state.status) {
    case 'idle':
    case 'failed':
      return true;
    case 'uploading':
    case 'processing':
    case 'done':
      return false;
    default: {
      const exhaustive: never = state;
      return exhaustive;
    }
  }
}

/** Percent for the progress bar, whole numbers 0..100. */
export const progressPercent = (fraction: number) => Math.round(Math.min(1, Math.max(0, fraction)) * 100);
