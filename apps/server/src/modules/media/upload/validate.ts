import { ErrorText, Limits, type MediaType } from '@kadr/contract';
import { errors } from '../../../lib/errors.ts';
import type { FfmpegBinaries } from '../processing/ffmpeg.ts';
import { type ReceivedUpload, tooLarge, type UploadLimits } from './receive.ts';
import { sniffFile } from './sniff.ts';

export interface CheckedUpload {
  mediaType: MediaType;
  caption: string;
  files: { path: string; kind: 'video' | 'image' }[];
  cover: string | null;
}

const MEDIA_TYPES = new Set(['video', 'photo', 'carousel']);

/**
 * Spec §5 post upload rules, checked on content: one video, one image, or several images; a cover must be an
 * image; caption at most 500. Throws the spec's message as a 4xx; the caller then removes the upload.
 */
export async function checkUpload(
  bins: FfmpegBinaries,
  upload: ReceivedUpload,
  limits: UploadLimits,
): Promise<CheckedUpload> {
  if (upload.mediaType !== null && upload.mediaType !== '' && !MEDIA_TYPES.has(upload.mediaType)) {
    throw errors.validation({ media_type: ErrorText.validationFailed });
  }
  if (upload.files.length === 0)
    throw errors.validation({ files: ErrorText.uploadNoFiles }, ErrorText.uploadNoFiles);
  const caption = upload.caption.trim();
  if ([...caption].length > Limits.postCaption) {
    throw errors.validation({ caption: ErrorText.uploadCaptionTooLong }, ErrorText.uploadCaptionTooLong);
  }
  const files: CheckedUpload['files'] = [];
  for (const file of upload.files) {
    const kind = await sniffFile(bins, file.path);
    if (!kind) throw errors.unsupportedMedia(ErrorText.uploadWrongType);
    files.push({ path: file.path, kind });
  }
  const videos = files.filter((f) => f.kind === 'video').length;
  if (videos > 1 || (videos === 1 && files.length > 1)) {
    throw errors.unsupportedMedia(ErrorText.uploadWrongCombination);
  }
  if (files.length > limits.maxCarouselImages) throw errors.unsupportedMedia(ErrorText.uploadTooManyImages);
  for (const [i, file] of files.entries()) {
    const max = file.kind === 'video' ? limits.maxVideoBytes : limits.maxImageBytes;
    if (upload.files[i]!.bytes > max) throw tooLarge();
  }
  let cover: string | null = null;
  if (upload.thumbnail) {
    const kind = await sniffFile(bins, upload.thumbnail.path);
    if (kind !== 'image') throw errors.unsupportedMedia(ErrorText.uploadCoverNotImage);
    if (upload.thumbnail.bytes > limits.maxImageBytes) throw tooLarge();
    if (videos === 1) cover = upload.thumbnail.path;
  }
  const mediaType: MediaType = videos === 1 ? 'video' : files.length > 1 ? 'carousel' : 'photo';
  return { mediaType, caption, files, cover };
}
