import { describe, expect, it } from 'vitest';
import { checkPickedFiles, validateUpload } from './validate-upload.ts';

const video = { type: 'video/mp4' };
const image = { type: 'image/jpeg' };
const text = { type: 'text/plain' };

describe('validateUpload', () => {
  it('needs files', () => {
    expect(validateUpload([], null, '')).toEqual({
      ok: false,
      message: 'Пожалуйста, выберите файлы для загрузки',
    });
  });

  it('accepts only videos and images', () => {
    expect(validateUpload([text], null, '')).toEqual({
      ok: false,
      message: 'Пожалуйста, выберите видео или изображения',
    });
    expect(validateUpload([image, { type: '' }], null, '')).toMatchObject({ ok: false });
  });

  it('allows one video, or one or more images', () => {
    const combination = 'Выберите либо одно видео, либо одно или несколько изображений';
    expect(validateUpload([video, video], null, '')).toEqual({ ok: false, message: combination });
    expect(validateUpload([video, image], null, '')).toEqual({ ok: false, message: combination });
    expect(validateUpload([video], null, '')).toEqual({ ok: true, mediaType: 'video' });
    expect(validateUpload([image], null, '')).toEqual({ ok: true, mediaType: 'photo' });
    expect(validateUpload([image, image, image], null, '')).toEqual({ ok: true, mediaType: 'carousel' });
  });

  it('needs an image cover', () => {
    expect(validateUpload([video], video, '')).toEqual({
      ok: false,
      message: 'Пожалуйста, выберите изображение для обложки',
    });
    expect(validateUpload([video], image, '')).toEqual({ ok: true, mediaType: 'video' });
  });

  it('limits the caption to 500 characters', () => {
    expect(validateUpload([image], null, 'я'.repeat(500))).toMatchObject({ ok: true });
    expect(validateUpload([image], null, 'я'.repeat(501))).toMatchObject({ ok: false });
  });

  it('checks a picked selection at once', () => {
    expect(checkPickedFiles([])).toBeNull();
    expect(checkPickedFiles([text])).toBe('Пожалуйста, выберите видео или изображения');
    expect(checkPickedFiles([image, image])).toBeNull();
  });
});
