import type { PostFile, Story } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { postOf } from '../../test/posts.ts';
import { feedImage, STORY_FRAME, STORY_SCREEN, screenImage, storyPicture, tileImage } from './post-image.ts';

const photo = (file: Partial<PostFile>): PostFile => ({
  file_url: '/files/media/feed.webp',
  thumbnail_url: '/files/media/thumb.webp',
  screen_url: '/files/media/screen.webp',
  file_type: 'image',
  width: 1080,
  height: 1440,
  duration: null,
  ...file,
});

describe('feedImage', () => {
  it('shows a photo’s screen variant at the size the pipeline makes it: inside 720×1280, never enlarged', () => {
    expect(feedImage(postOf({ files: [photo({})] }))).toEqual({
      src: '/files/media/screen.webp',
      width: 720,
      height: 960,
    });
    // Another size: the formula's cases are the contract's (picture-sizes.test.ts), shared with the pipeline.
    expect(feedImage(postOf({ files: [photo({ width: 1440, height: 941 })] }))).toEqual({
      src: '/files/media/screen.webp',
      width: 720,
      height: 471,
    });
  });

  it('falls back to the feed file at its own size for a photo processed before the variant', () => {
    const expected = { src: '/files/media/feed.webp', width: 1080, height: 1440 };
    expect(feedImage(postOf({ files: [photo({ screen_url: null })] }))).toEqual(expected);
    const { screen_url: _, ...older } = photo({});
    expect(feedImage(postOf({ files: [older] }))).toEqual(expected);
  });

  it('shows a video’s poster and nothing for a post still processing', () => {
    const video = photo({
      file_url: '/files/media/clip.mp4',
      thumbnail_url: '/files/media/poster.webp',
      screen_url: null,
      file_type: 'video',
      width: 720,
      height: 1280,
      duration: 3,
    });
    expect(feedImage(postOf({ files: [video] }))).toEqual({
      src: '/files/media/poster.webp',
      width: 720,
      height: 1280,
    });
    expect(feedImage(postOf({ files: [photo({ file_url: '', screen_url: null })] }))).toBeNull();
  });

  it('is the carousel’s slide for the first photo, and a grid tile keeps the thumbnail', () => {
    const post = postOf({ files: [photo({})] });
    expect(screenImage(post.files[0]!)).toEqual(feedImage(post));
    expect(tileImage(post)).toEqual({ src: '/files/media/thumb.webp', width: 270, height: 360 });
  });
});

describe('storyPicture', () => {
  const story = (extra: Partial<Story> = {}) => ({
    media_type: 'photo' as const,
    file_url: '/files/stories/story.webp',
    thumbnail_url: '/files/stories/thumb.webp',
    screen_url: '/files/stories/screen.webp' as string | null | undefined,
    ...extra,
  });

  it('the screen variant’s size is the 9:16 frame fitted inside 720×1280 (server: `storyScreenSize`)', () => {
    expect(STORY_FRAME).toEqual({ width: 1080, height: 1920 });
    expect(STORY_SCREEN).toEqual({ width: 720, height: 1280 });
    expect(STORY_SCREEN.width / STORY_SCREEN.height).toBe(9 / 16);
  });

  it('shows a photo’s screen variant at 720×1280', () => {
    expect(storyPicture(story())).toEqual({ src: '/files/stories/screen.webp', width: 720, height: 1280 });
  });

  it('falls back to the story file at the frame’s size for a photo without one', () => {
    const expected = { src: '/files/stories/story.webp', width: 1080, height: 1920 };
    expect(storyPicture(story({ screen_url: null }))).toEqual(expected);
    const { screen_url: _, ...older } = story();
    expect(storyPicture(older)).toEqual(expected);
  });

  it('shows a video’s poster at the frame’s size, and nothing while a story has no file', () => {
    const video = story({ media_type: 'video', file_url: '/files/stories/clip.mp4', screen_url: null });
    expect(storyPicture(video)).toEqual({ src: '/files/stories/thumb.webp', width: 1080, height: 1920 });
    expect(storyPicture({ ...video, thumbnail_url: null })).toBeNull();
    expect(storyPicture(story({ file_url: null, thumbnail_url: null, screen_url: null }))).toBeNull();
  });
});
