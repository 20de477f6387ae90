import type { StoryResponse, StoryText } from '@kadr/contract';
import { StoryUploadFields } from '@kadr/contract/browser';
import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { api } from '../../../shared/api/client.ts';

export interface StoryUploadInput {
  file: Blob;
  fileName: string;
  mediaType: 'video' | 'photo';
  caption: string;
  /** Video: the chosen segment (seconds). */
  start?: number;
  duration?: number;
  /** Video: the texts placed on it, burned in by the server (a photo's are drawn into its picture). */
  texts?: StoryText[];
}

export function storyForm(input: StoryUploadInput): FormData {
  const form = new FormData();
  form.append(StoryUploadFields.caption, input.caption);
  form.append(StoryUploadFields.mediaType, input.mediaType);
  if (input.start !== undefined) form.append(StoryUploadFields.start, String(input.start));
  if (input.duration !== undefined) form.append(StoryUploadFields.duration, String(input.duration));
  if (input.texts && input.texts.length > 0)
    form.append(StoryUploadFields.texts, JSON.stringify(input.texts));
  form.append(StoryUploadFields.file, input.file, input.fileName);
  return form;
}

/** POST /stories/upload with upload progress (the client uses XHR for a form with a progress callback). */
export function sendStory(form: FormData, onProgress: (fraction: number) => void): Promise<StoryResponse> {
  return api.call(storiesEndpoints.upload, { form, onUploadProgress: onProgress });
}
