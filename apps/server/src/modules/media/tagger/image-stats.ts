import sharp from 'sharp';

export interface FrameStats {
  brightness: number;
  saturation: number;
  detail: number;
  warmth: number;
  /** Small greyscale copy, for motion between frames. */
  grey: Uint8Array;
}

const SIDE = 64;

/**
 * Pixel statistics of one frame on a 64×64 copy: luma, saturation, gradient detail, warm/cool balance. Runs in
 * the image process (processing/image-ops.ts); the server asks for it through processing/image.ts.
 */
export async function frameStats(frame: Buffer): Promise<FrameStats> {
  const { data } = await sharp(frame)
    .removeAlpha()
    .resize(SIDE, SIDE, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = SIDE * SIDE;
  const grey = new Uint8Array(pixels);
  let luma = 0;
  let sat = 0;
  let warm = 0;
  for (let i = 0; i < pixels; i++) {
    const r = data[i * 3]!;
    const g = data[i * 3 + 1]!;
    const b = data[i * 3 + 2]!;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    grey[i] = Math.round(y);
    luma += y;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    // Chroma rather than HSV saturation: a dark navy pixel is muted, not 'fully saturated'.
    sat += (max - min) / 255;
    warm += r - b;
  }
  let gradient = 0;
  for (let y = 0; y < SIDE - 1; y++) {
    for (let x = 0; x < SIDE - 1; x++) {
      const i = y * SIDE + x;
      gradient += Math.abs(grey[i]! - grey[i + 1]!) + Math.abs(grey[i]! - grey[i + SIDE]!);
    }
  }
  const edges = (SIDE - 1) * (SIDE - 1) * 2;
  return {
    brightness: luma / pixels / 255,
    saturation: sat / pixels,
    // A mean step of 32 grey levels between neighbours is already a very busy picture.
    detail: Math.min(1, gradient / edges / 32),
    warmth: warm / pixels / 255,
    grey,
  };
}

/** Mean absolute difference between consecutive greyscale frames, 0 … 1 (0.15 is lively). */
export function motionBetween(greys: Uint8Array[]): number {
  if (greys.length < 2) return 0;
  let total = 0;
  for (let f = 1; f < greys.length; f++) {
    const a = greys[f - 1]!;
    const b = greys[f]!;
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    total += diff / a.length / 255;
  }
  return Math.min(1, (total / (greys.length - 1)) * 4);
}

export function meanOf(stats: FrameStats[], key: 'brightness' | 'saturation' | 'detail' | 'warmth'): number {
  return stats.length === 0 ? 0 : stats.reduce((sum, s) => sum + s[key], 0) / stats.length;
}
