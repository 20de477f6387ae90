import {
  API_PREFIX,
  type ErrorBody,
  type MediaType,
  type PostResponse,
  paths,
  UploadFields,
} from '@kadr/contract';
import { ApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { ru } from '../../../shared/i18n/ru.ts';

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
 * POST /media/upload through XMLHttpRequest, because fetch cannot report upload progress.
 * `onProgress` gets 0..1 as bytes leave the browser.
 */
export function sendUpload(
  form: FormData,
  token: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<PostResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_PREFIX}${paths.media.upload}`);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as PostResponse | ErrorBody | null;
      if (xhr.status >= 200 && xhr.status < 300 && body && 'post' in body) {
        resolve(body);
        return;
      }
      const error =
        body && 'error' in body ? body : { error: ru.feed.upload.failed, code: `http_${xhr.status}` };
      reject(new ApiError(xhr.status, error));
    };
    xhr.onerror = () => reject(new ApiError(0, { error: ru.app.networkError, code: NETWORK_ERROR_CODE }));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
