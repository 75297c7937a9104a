import sharp from 'sharp';
import { fieldError } from '../../lib/errors.ts';

export const SIGNATURE_MIN_SIDE = 40;
export const SIGNATURE_MAX_SIDE = 5000;
/** Wide enough to print sharply on an A4 diploma, small enough to embed in 800,000 of them. */
const OUTPUT_MAX_WIDTH = 900;

/**
 * Turns an uploaded signature (PNG or JPEG, checked by its content, not its name) into a PNG with a
 * transparent background: on a white or near-white scan, each pixel's opacity follows its ink
 * (darkness), which keeps anti-aliased strokes smooth. The blank margins are trimmed.
 */
export async function processSignatureImage(input: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(input).metadata();
  } catch {
    throw fieldError('image', 'field.image_type');
  }
  if (meta.format !== 'png' && meta.format !== 'jpeg') throw fieldError('image', 'field.image_type');
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (Math.min(width, height) < SIGNATURE_MIN_SIDE || Math.max(width, height) > SIGNATURE_MAX_SIDE) {
    throw fieldError('image', { key: 'field.image_dimensions', params: { min: SIGNATURE_MIN_SIDE, max: SIGNATURE_MAX_SIDE } });
  }

  const { data, info } = await sharp(input).rotate().resize({ width: OUTPUT_MAX_WIDTH, withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });

  if (hasWhiteBackground(data, info.width, info.height)) {
    for (let i = 0; i < data.length; i += 4) {
      const luminance = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      // Paper (luminance ≥ 235) vanishes; ink keeps its opacity in proportion to its darkness.
      const ink = Math.max(0, Math.min(1, (235 - luminance) / 135));
      data[i + 3] = Math.round(Math.min(data[i + 3]!, ink * 255));
    }
  }

  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .trim({ threshold: 1 })
    .png({ compressionLevel: 9, palette: false })
    .toBuffer({ resolveWithObject: true })
    .catch(async () =>
      // trim() refuses an image that is entirely blank: keep it whole rather than fail.
      sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
        .png({ compressionLevel: 9 })
        .toBuffer({ resolveWithObject: true }),
    );
  return { png: png.data, width: png.info.width, height: png.info.height };
}

/** A scan on white paper: its border pixels are mostly opaque and light. */
function hasWhiteBackground(rgba: Buffer, width: number, height: number): boolean {
  let light = 0;
  let total = 0;
  const sample = (x: number, y: number) => {
    const i = (y * width + x) * 4;
    total++;
    const luminance = 0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!;
    if (rgba[i + 3]! > 200 && luminance > 215) light++;
  };
  for (let x = 0; x < width; x += Math.max(1, Math.floor(width / 50))) {
    sample(x, 0);
    sample(x, height - 1);
  }
  for (let y = 0; y < height; y += Math.max(1, Math.floor(height / 50))) {
    sample(0, y);
    sample(width - 1, y);
  }
  return total > 0 && light / total > 0.8;
}
