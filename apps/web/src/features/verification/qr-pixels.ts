/**
 * A chosen photo as RGBA pixels, with the browser's own image decoders (JPEG, PNG, WebP, and
 * HEIC/AVIF where the browser reads them), EXIF orientation applied, scaled down so the longest
 * side is at most `maxSide` (a 12-megapixel photo decodes faster, and loses nothing a QR code
 * printed on a diploma needs).
 */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}

/** The image could not be read at all (not an image, or a format this browser does not decode). */
export class UnreadableImageError extends Error {
  constructor(cause?: unknown) {
    super('unreadable image', { cause });
    this.name = 'UnreadableImageError';
  }
}

type Drawable = { source: CanvasImageSource; width: number; height: number; release(): void };

async function drawable(file: Blob): Promise<Drawable> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      return { source: bitmap, width: bitmap.width, height: bitmap.height, release: () => bitmap.close() };
    } catch {
      // Some browsers decode in <img> what createImageBitmap refuses (HEIC on Safari): try that.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return { source: image, width: image.naturalWidth, height: image.naturalHeight, release: () => URL.revokeObjectURL(url) };
  } catch (error) {
    URL.revokeObjectURL(url);
    throw new UnreadableImageError(error);
  }
}

export async function readImagePixels(file: Blob, maxSide = 2000): Promise<Rgba> {
  const image = await drawable(file);
  try {
    if (!image.width || !image.height) throw new UnreadableImageError();
    const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
    const width = Math.max(1, Math.round(image.width * scale));
    const height = Math.max(1, Math.round(image.height * scale));
    const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : Object.assign(document.createElement('canvas'), { width, height });
    const context = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
    if (!context) throw new UnreadableImageError();
    context.drawImage(image.source, 0, 0, width, height);
    return context.getImageData(0, 0, width, height);
  } finally {
    image.release();
  }
}
