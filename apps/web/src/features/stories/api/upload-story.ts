import type { ErrorBody, StoryResponse } from '@kadr/contract';
import { API_PREFIX, StoryUploadFields } from '@kadr/contract/browser';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { ApiError, NETWORK_ERROR_CODE } from '../../../shared/api/client.ts';
import { storiesStrings } from '../strings.ts';

export interface StoryUploadInput {
  file: Blob;
  fileName: string;
  mediaType: 'video' | 'photo';
  caption: string;
  /** Video: the chosen segment (seconds). */
  start?: number;
  duration?: number;
}

export function storyForm(input: StoryUploadInput): FormData {
  const form = new FormData();
  form.append(StoryUploadFields.caption, input.caption);
  form.append(StoryUploadFields.mediaType, input.mediaType);
  if (input.start !== undefined) form.append(StoryUploadFields.start, String(input.start));
  if (input.duration !== undefined) form.append(StoryUploadFields.duration, String(input.duration));
  form.append(StoryUploadFields.file, input.file, input.fileName);
  return form;
}

/** POST /stories/upload through XMLHttpRequest, because fetch cannot report upload progress. */
export function sendStory(
  form: FormData,
  token: string,
  onProgress: (fraction: number) => void,
): Promise<StoryResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(storiesEndpoints.upload.method, `${API_PREFIX}${storiesEndpoints.upload.path}`);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as StoryResponse | ErrorBody | null;
      if (xhr.status >= 200 && xhr.status < 300 && body && 'story' in body) {
        resolve(body);
        return;
      }
      const error =
        body && 'error' in body ? body : { error: storiesStrings.uploadFailed, code: `http_${xhr.status}` };
      reject(new ApiError(xhr.status, error));
    };
    xhr.onerror = () =>
      reject(new ApiError(0, { error: storiesStrings.uploadFailed, code: NETWORK_ERROR_CODE }));
    xhr.send(form);
  });
}
