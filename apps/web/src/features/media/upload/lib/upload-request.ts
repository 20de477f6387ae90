import type { MediaType } from '@kadr/contract';
import { UploadFields } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { api } from '../../../../shared/api/client.ts';

export interface UploadInput {
  files: readonly File[];
  cover: File | null;
  caption: string;
  mediaType: MediaType;
}

export function uploadForm(input: UploadInput): FormData {
  const form = new FormData();
  form.append(UploadFields.caption, input.caption);
  form.append(UploadFields.mediaType, input.mediaType);
  if (input.cover) form.append(UploadFields.thumbnail, input.cover);
  for (const file of input.files) form.append(UploadFields.files, file);
  return form;
}

/**
 * POST /media/upload; `onProgress` gets 0..1 as bytes leave the browser (the client sends it through
 * XMLHttpRequest, because fetch cannot report upload progress).
 */
export function sendUpload(form: FormData, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return api.call(mediaEndpoints.upload, { form, onUploadProgress: onProgress, signal });
}
