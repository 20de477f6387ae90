/** Pixel rectangle of the source image (react-easy-crop's `croppedAreaPixels`). */
export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Side of the square a group avatar is uploaded at; the server scales it to its own size again. */
export const AVATAR_UPLOAD_SIDE = 512;

/** The square drawn for `area`: never upscaled past the source, at most `max` pixels a side. */
export function outputSide(area: PixelArea, max = AVATAR_UPLOAD_SIDE): number {
  return Math.max(1, Math.min(max, Math.round(Math.min(area.width, area.height))));
}

/** Draws the chosen square of `img` into a canvas and encodes it as JPEG (spec §9: 0.95 for crops). */
export function cropSquare(img: CanvasImageSource, area: PixelArea, max = AVATAR_UPLOAD_SIDE): Promise<Blob> {
  const side = outputSide(area, max);
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no 2d context'));
  ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, side, side);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))), 'image/jpeg', 0.95),
  );
}
