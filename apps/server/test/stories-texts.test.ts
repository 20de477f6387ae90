import fs from 'node:fs';
import path from 'node:path';
import type { Story, StoryGroup } from '@kadr/contract';
import { apiUrl, ErrorCode, type StoryText } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { findFfmpeg, run } from '../src/modules/media/processing/ffmpeg.ts';
import { firstFrame } from '../src/modules/media/processing/video.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { filesUnder, MEDIA_TEST_ENV, type Part, upload as uploadTo } from './media-helpers.ts';

let t: TestApp;
let token: string;
let clip: string;
let fixtures: string;

const media = () => path.join(t.dataDir, 'media');
const upload = (parts: Part[]) => uploadTo(t.app, token, parts, apiUrl(storiesRoutes.upload));

/** Uploads, waits for the job queue, answers the story once the owner's feed has it ready. */
async function publish(parts: Part[]): Promise<Story> {
  const res = await upload(parts);
  expect(res.statusCode, res.body).toBe(200);
  const { id } = (res.json() as { story: Story }).story;
  await t.app.ctx.media.jobs.idle();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const feed = (
      await t.app.inject({ method: 'GET', url: apiUrl(storiesRoutes.feed), headers: bearer(token) })
    ).json() as { stories_groups: StoryGroup[] };
    const found = feed.stories_groups.flatMap((g) => g.stories).find((s) => s.id === id);
    if (found?.status === 'ready') return found;
    if (Date.now() > deadline) throw new Error('story not ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Near-white pixels of the story's first frame inside the box (output pixels). */
async function whitePixels(story: Story, box: { left: number; top: number; width: number; height: number }) {
  const file = path.join(media(), t.app.ctx.storage.keyFromUrl(story.file_url!)!);
  const { data, info } = await sharp(await firstFrame(findFfmpeg(), file))
    .extract(box)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let white = 0;
  for (let i = 0; i < info.width * info.height * 3; i += 3)
    if (data[i]! > 200 && data[i + 1]! > 200 && data[i + 2]! > 200) white++;
  return white;
}

const videoParts = (texts?: unknown): Part[] => [
  { field: 'file', filename: 'blue.mp4', contentType: 'video/mp4', data: fs.readFileSync(clip) },
  { field: 'media_type', data: 'video' },
  { field: 'duration', data: '2' },
  ...(texts === undefined
    ? []
    : [{ field: 'texts', data: typeof texts === 'string' ? texts : JSON.stringify(texts) }]),
];

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  token = (await registerUser(t.app)).access_token;
  fixtures = tempDir('kadr-story-texts-');
  // Solid blue 9:16 at 360×640: kept at its size, so the editor's 540 px frame maps onto it at 2/3.
  clip = path.join(fixtures, 'blue.mp4');
  await run(findFfmpeg().ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x0000ff:s=360x640:d=3:r=25'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', clip],
  ]);
}, 600_000);

afterAll(async () => {
  await t?.close();
  if (fixtures) fs.rmSync(fixtures, { recursive: true, force: true });
}, 180_000);

describe('texts on a video story', () => {
  // A 100 px text at (60, 300) of the editor's frame lands at (40, 200), 67 px high, on the 360 px video.
  // Its colon, quote and %{…} would be filter syntax or an expansion if the text reached the filter itself.
  const text: StoryText = { text: "Привет: it's 100%{n}", x: 60, y: 300, size: 100, color: '#ffffff' };
  const where = { left: 30, top: 190, width: 320, height: 90 };

  it("burns the author's text into the video where the editor placed it, and only there", async () => {
    const plain = await publish(videoParts());
    const titled = await publish(videoParts([text]));
    expect(await whitePixels(plain, where)).toBe(0);
    // A line of 67 px glyphs: thousands of white pixels in its box, none above it.
    expect(await whitePixels(titled, where)).toBeGreaterThan(1500);
    expect(await whitePixels(titled, { left: 0, top: 0, width: 360, height: 180 })).toBe(0);
  }, 600_000);

  it('refuses malformed texts, and texts on a photo (its texts are in its pixels), storing nothing', async () => {
    const before = filesUnder(media()).length;
    for (const texts of [
      'not json',
      [{ ...text, color: 'red' }],
      [{ ...text, size: 500 }],
      [{ ...text, text: '   ' }],
      Array.from({ length: 11 }, () => text),
    ]) {
      const res = await upload(videoParts(texts));
      expect(res.statusCode, JSON.stringify(texts)).toBe(400);
      expect(res.json()).toMatchObject({ code: ErrorCode.validationFailed });
    }
    const photo = await upload([
      { field: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await brightImage() },
      { field: 'texts', data: JSON.stringify([text]) },
    ]);
    expect(photo.statusCode).toBe(400);
    await t.app.ctx.media.jobs.idle();
    expect(filesUnder(media()).length).toBe(before);
  }, 600_000);
});
