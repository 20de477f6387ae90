import { expect } from '@playwright/test';

/**
 * What a <video> shows, read the same way in every engine (the function is sent to the page as source, so it
 * stays self-contained): decoded size, playback time and mean brightness (0 = black) of a 64×36 copy of the
 * first element matching `selector`; null before the first frame. Used by firefox-call.e2e.ts and
 * firefox-media.e2e.ts.
 */
export function videoPicture(selector: string) {
  const video = document.querySelector(selector) as HTMLVideoElement | null;
  if (!video || video.videoWidth === 0) return null;
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.drawImage(video, 0, 0, 64, 36);
  const data = g.getImageData(0, 0, 64, 36).data;
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0);
  return { width: video.videoWidth, time: video.currentTime, brightness: sum / (data.length / 4) / 3 };
}

export type Picture = ReturnType<typeof videoPicture>;

/** How long a peer's first frame may take (ICE through the loaded machine); KADR_CALL_MEDIA_WITHIN_MS overrides. */
export const MEDIA_WITHIN_MS = Number(process.env.KADR_CALL_MEDIA_WITHIN_MS ?? 30_000);

/** The picture plays (its time advances) and is not black, read twice a second apart. */
export async function expectPlaying(read: () => Promise<Picture>, who: string, timeout = MEDIA_WITHIN_MS) {
  let first: Picture = null;
  await expect
    .poll(
      async () => {
        first = await read();
        return first?.width ?? 0;
      },
      { timeout, message: who },
    )
    .toBeGreaterThan(0);
  await expect
    .poll(
      async () => {
        const now = await read();
        return Boolean(now && first && now.time > first.time && now.brightness > 10);
      },
      { message: `${who}: ${JSON.stringify(first)}` },
    )
    .toBe(true);
  console.log(`${who} sees the peer: ${JSON.stringify(await read())}`);
}
