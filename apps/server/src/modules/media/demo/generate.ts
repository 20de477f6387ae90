import sharp from 'sharp';
import { type FfmpegBinaries, run } from '../processing/ffmpeg.ts';

/**
 * Generated media for the demo feed, tests and benchmarks — never downloaded. Videos come from ffmpeg's lavfi
 * sources, images from SVG rendered by sharp.
 */
export async function generateVideo(
  bins: FfmpegBinaries,
  out: string,
  options: {
    seconds?: number;
    width?: number;
    height?: number;
    look?: 'testsrc' | 'dark-calm';
    audio?: boolean;
  } = {},
): Promise<string> {
  const seconds = options.seconds ?? 3;
  const size = `${options.width ?? 360}x${options.height ?? 640}`;
  const video =
    options.look === 'dark-calm'
      ? // A deep-blue night sky that slowly breathes: dark, muted, almost still.
        `color=c=0x0b1026:s=${size}:d=${seconds}:r=30,geq=r='12+4*sin(T/3)':g='16+4*sin(T/3)':b='40+6*sin(T/3)'`
      : `testsrc2=s=${size}:d=${seconds}:r=30`;
  const audio =
    options.look === 'dark-calm'
      ? `sine=f=110:d=${seconds},volume=0.003`
      : `sine=f=440:d=${seconds},volume=0.5`;
  const args = ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', video];
  if (options.audio !== false) args.push('-f', 'lavfi', '-i', audio, '-c:a', 'aac', '-shortest');
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out);
  await run(bins.ffmpeg, args, { timeoutMs: 5 * 60_000 });
  return out;
}

const svg = (w: number, h: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

/** A night sky: dark navy, a pale moon, a few faint stars. */
export function nightImage(): Promise<Buffer> {
  const stars = Array.from({ length: 24 }, (_, i) => {
    const x = (i * 137) % 720;
    const y = (i * 89) % 600;
    return `<circle cx="${x}" cy="${y}" r="1.5" fill="#8890a8"/>`;
  }).join('');
  return sharp(
    svg(
      720,
      1080,
      `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#05070f"/>` +
        `<stop offset="1" stop-color="#10162a"/></linearGradient></defs><rect width="720" height="1080" fill="url(#g)"/>` +
        `${stars}<circle cx="540" cy="200" r="50" fill="#b8b8a0" opacity="0.6"/>`,
    ),
  )
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A bright, colourful daytime picture: sky, sun, green hills. */
export function brightImage(seed = 0): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  return sharp(
    svg(
      720,
      1080,
      `<rect width="720" height="1080" fill="hsl(${200 + (hue % 20)},85%,70%)"/>` +
        `<circle cx="560" cy="220" r="110" fill="#ffd23a"/>` +
        `<ellipse cx="200" cy="1000" rx="520" ry="300" fill="hsl(${100 + (hue % 30)},70%,45%)"/>` +
        `<ellipse cx="640" cy="1060" rx="420" ry="260" fill="hsl(${80 + (hue % 30)},65%,40%)"/>`,
    ),
  )
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A simple drawn figure — head with eyes and mouth, torso, arms, legs — that the face detector recognises. */
export function personImage(): Promise<Buffer> {
  return sharp(
    svg(
      640,
      640,
      `<rect width="640" height="640" fill="#6b8fb5"/><circle cx="320" cy="140" r="60" fill="#e0b090"/>` +
        `<circle cx="298" cy="130" r="7" fill="#222"/><circle cx="342" cy="130" r="7" fill="#222"/>` +
        `<rect x="300" y="165" width="40" height="8" rx="4" fill="#a04040"/>` +
        `<rect x="250" y="200" width="140" height="220" rx="40" fill="#c03030"/>` +
        `<rect x="200" y="210" width="40" height="180" rx="20" fill="#e0b090"/>` +
        `<rect x="400" y="210" width="40" height="180" rx="20" fill="#e0b090"/>` +
        `<rect x="260" y="420" width="50" height="200" rx="20" fill="#203060"/>` +
        `<rect x="330" y="420" width="50" height="200" rx="20" fill="#203060"/>`,
    ),
  )
    .png()
    .toBuffer();
}

/** A JPEG that carries EXIF (camera make and an orientation), to prove it is stripped. */
export function imageWithExif(): Promise<Buffer> {
  return sharp(svg(400, 300, '<rect width="400" height="300" fill="#c84"/>'))
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Make: 'KadrTestCam', Model: 'Secret GPS' } } })
    .toBuffer();
}
