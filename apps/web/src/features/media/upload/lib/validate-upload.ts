import type { MediaType } from '@kadr/contract';
import { ErrorText, Limits } from '@kadr/contract/browser';
import { mediaStrings } from '../../strings.ts';

export interface FileLike {
  type: string;
}

export type UploadCheck = { ok: true; mediaType: MediaType } | { ok: false; message: string };

const isVideo = (f: FileLike) => f.type.startsWith('video/');
const isImage = (f: FileLike) => f.type.startsWith('image/');

/**
 * The §5 post-upload rules, checked before anything is sent: files present, each a video or an image,
 * either one video or one or more images, an optional image cover, and a caption of at most 500.
 * The server checks the same by content; this only spares a doomed upload.
 */
export function validateUpload(
  files: readonly FileLike[],
  cover: FileLike | null,
  caption: string,
): UploadCheck {
  const T = mediaStrings.upload;
  if (files.length === 0) return { ok: false, message: T.noFiles };
  if (!files.every((f) => isVideo(f) || isImage(f))) return { ok: false, message: T.wrongType };
  const videos = files.filter(isVideo).length;
  if (videos > 1 || (videos === 1 && files.length > 1)) return { ok: false, message: T.wrongCombination };
  if (cover && !isImage(cover)) return { ok: false, message: T.coverNotImage };
  if (caption.length > Limits.postCaption) return { ok: false, message: ErrorText.uploadCaptionTooLong };
  const mediaType: MediaType = videos === 1 ? 'video' : files.length > 1 ? 'carousel' : 'photo';
  return { ok: true, mediaType };
}

/** A picked file list, checked for type only (the alert of spec §5 comes at once on selection). */
export function checkPickedFiles(files: readonly FileLike[]): string | null {
  if (files.length === 0) return null;
  const check = validateUpload(files, null, '');
  return check.ok ? null : check.message;
}
