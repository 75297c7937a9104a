import { PHOTO_EDIT_LIMITS, type PhotoEdits } from '@sceau/contracts';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { fieldError } from '../../lib/errors.ts';
import { type PhotoFiles, preparePhotoFiles, readPhoto } from '../imports/photo-reading.ts';

const L = PHOTO_EDIT_LIMITS;

/** Encodes at the highest quality that fits the stored photo's ceiling (30 KB). */
async function toStoredJpeg(image: Sharp): Promise<Buffer> {
  const prepared = image.toColourspace('srgb').flatten({ background: '#ffffff' });
  let output = Buffer.alloc(0);
  for (const quality of [85, 75, 65, 55, 45, 35]) {
    output = await prepared.clone().jpeg({ quality, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
    if (output.length <= L.maxBytes) break;
  }
  return output;
}

/**
 * The image editor's settings applied on the server to the stored photo, in the editor's order:
 * crop (pixels of the photo as served), resize to the chosen size (300 × 400 by default),
 * brightness and hue (modulate), contrast (a linear stretch around mid-grey).
 */
export async function applyPhotoEdits(photo: Buffer, edits: PhotoEdits): Promise<Buffer> {
  let image = sharp(photo, { failOn: 'error' }).autoOrient();
  if (edits.crop) {
    const { width, height } = (await sharp(photo).metadata()).autoOrient;
    const { x, y, w, h } = edits.crop;
    if (x + w > width || y + h > height) throw fieldError('edits.crop', { key: 'field.validation_crop_outside', params: { width, height } });
    image = image.extract({ left: x, top: y, width: w, height: h });
  }
  image = image.resize(edits.width ?? L.width.default, edits.height ?? L.height.default, { fit: 'cover', position: 'centre' });
  const brightness = (edits.brightness ?? L.brightness.default) / 100;
  const hue = Math.round(edits.hue ?? L.hue.default);
  if (brightness !== 1 || hue !== 0) image = image.modulate({ brightness, hue });
  const contrast = (edits.contrast ?? L.contrast.default) / 100;
  if (contrast !== 1) image = image.linear(contrast, 128 * (1 - contrast));
  return toStoredJpeg(image);
}

/**
 * The editor's result sent whole (a data URL): decoded, checked to be an image, kept at its size
 * when within the limits (otherwise fitted into them), and stored as a JPEG of at most 30 KB.
 */
export async function readEditedImage(dataUrl: string): Promise<Buffer> {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1).replace(/\s/g, '');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > L.maxUploadBytes) throw fieldError('image', 'field.image_too_large');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'error' }).metadata();
  } catch {
    throw fieldError('image', 'field.validation_image_unreadable');
  }
  if (!['jpeg', 'png', 'webp'].includes(meta.format ?? '')) throw fieldError('image', 'field.validation_image_unreadable');
  const oriented = sharp(bytes, { failOn: 'error' }).autoOrient();
  const { width, height } = meta.autoOrient;
  if (width < 100 || height < 100) throw fieldError('image', { key: 'field.validation_image_too_small', params: { width: 100, height: 100 } });
  const fits = width >= L.width.min && width <= L.width.max && height >= L.height.min && height <= L.height.max;
  const image = fits ? oriented : oriented.resize(L.width.default, L.height.default, { fit: 'cover', position: 'north' });
  return toStoredJpeg(image);
}

/** The smallest photo accepted (either side), as for the editor's result. */
const MIN_SIDE = 100;
/** The imports' resolution: the stored 300 × 400 pixels are the diploma's photo box at 200 dpi. */
const PHOTO_DPI = 200;

/**
 * A photo uploaded for a candidate (one imported without, or a better one): checked to be a JPEG,
 * PNG, WebP, GIF or HEIC (ADR 0147) of a usable size, then normalised exactly as the list import
 * does it (preparePhotoFiles: oriented, cropped centre-top to the box, sRGB on white, a JPEG of at
 * most 30 KB), with its bounded original for the editor.
 */
export async function readUploadedPhoto(bytes: Buffer, field = 'photo'): Promise<PhotoFiles> {
  const read = await readPhoto(bytes);
  if ('unreadable' in read) throw fieldError(field, 'field.validation_image_unreadable');
  if (read.width < MIN_SIDE || read.height < MIN_SIDE) throw fieldError(field, { key: 'field.validation_image_too_small', params: { width: MIN_SIDE, height: MIN_SIDE } });
  const box = { w: (L.width.default * 25.4) / PHOTO_DPI, h: (L.height.default * 25.4) / PHOTO_DPI };
  try {
    return await preparePhotoFiles(bytes, box, { dpi: PHOTO_DPI, maxBytes: L.maxBytes });
  } catch {
    // A header that reads but pixels that do not (a truncated file).
    throw fieldError(field, 'field.validation_image_unreadable');
  }
}
