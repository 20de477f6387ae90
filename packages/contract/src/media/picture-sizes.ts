/**
 * The sizes of the pictures the pipeline makes, which the web names in every `<img>`'s width and height before
 * the picture arrives: both sides compute them here, so a variant and the box the page reserves for it agree to
 * the pixel (a copy even a pixel larger becomes the page's largest paint; docs/PITFALLS.md).
 */

export interface PictureSize {
  width: number;
  height: number;
}

/** The box a feed photo's or a story's screen variant fits in: a phone's screen at its density, the desktop feed's column. */
export const SCREEN_BOX: PictureSize = { width: 720, height: 1280 };

/** The box a photo's thumbnail fits in (grid tiles). */
export const THUMBNAIL_BOX: PictureSize = { width: 360, height: 360 };

/**
 * `width`×`height` fitted inside `box`, never enlarged, each side rounded. The pipeline resizes to exactly this
 * (`fit: 'fill'`), not with sharp's `fit: 'inside'`, whose rounding lands a pixel short on some sizes.
 */
export function fitInside(width: number, height: number, box: PictureSize): PictureSize {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
