import decodeHeic from 'heic-decode';
import { isFittedPhoto, type PhotoLimits, preparePhoto } from '@sceau/pdf';
import sharp, { type Metadata } from 'sharp';

/**
 * Photos as phones take them (ADR 0147): JPEG, PNG, WebP, GIF (its first frame) and HEIC/HEIF (the
 * iPhone's default, decoded by libheif compiled to WebAssembly: sharp's prebuilt libvips reads HEIF
 * only with AV1, i.e. AVIF, never the HEVC of a phone), read into something sharp takes; anything
 * else said plainly, per file.
 */

/** Why a photo file cannot be used (the list check's `photo_unreadable` context). */
export type PhotoUnreadable = 'heic' | 'not_image' | 'format' | 'damaged' | 'too_many_pixels';
/** What a usable photo may still have against it: printed blurred, or cropped from a wide shot. */
export type PhotoWarning = 'photo_too_small' | 'photo_landscape';

/** Below this many pixels (the diploma's photo box at 200 dpi), a photo is enlarged to print. */
export const PHOTO_MIN_SIZE = { width: 300, height: 400 } as const;
/** A photo is not decoded past this many pixels (a 48-megapixel phone photo is 48e6): 4 bytes each once decoded. */
export const PHOTO_MAX_PIXELS = 50_000_000;
/** The original kept beside the 300 × 400 copy for the editor: at most this long a side, JPEG. */
export const ORIGINAL_MAX_SIDE = 1600;

export interface ReadPhoto {
  /** Bytes sharp reads (a HEIC comes out as a lossless PNG of its pixels). */
  input: Buffer;
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'heic';
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  warnings: PhotoWarning[];
}

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** An ISO-BMFF file whose major brand is HEIF's (HEVC coded). AVIF (`avif`) is read by sharp itself. */
export function isHeif(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, 12).toString('latin1');
  return text.slice(4, 8) === 'ftyp' && HEIF_BRANDS.has(text.slice(8, 12).replace(/\0/g, ' ').trim());
}

export function photoWarnings(width: number, height: number): PhotoWarning[] {
  const warnings: PhotoWarning[] = [];
  if (width < PHOTO_MIN_SIZE.width || height < PHOTO_MIN_SIZE.height) warnings.push('photo_too_small');
  if (width > height) warnings.push('photo_landscape');
  return warnings;
}

/**
 * A photo file read far enough to know it is usable: its format, displayed size and warnings, and
 * bytes sharp decodes. HEIC is decoded here (about 50 ms for a 12-megapixel photo); the others are
 * only probed (sharp's metadata reads their headers).
 */
export async function readPhoto(bytes: Buffer): Promise<ReadPhoto | { unreadable: PhotoUnreadable }> {
  if (isHeif(bytes)) {
    let images: Awaited<ReturnType<typeof decodeHeic.all>>;
    try {
      images = await decodeHeic.all({ buffer: bytes });
    } catch {
      return { unreadable: 'heic' };
    }
    try {
      const first = images[0];
      if (!first) return { unreadable: 'heic' };
      // The size is in the file's boxes: refused before anything is decoded.
      if (first.width * first.height > PHOTO_MAX_PIXELS) return { unreadable: 'too_many_pixels' };
      const { width, height, data } = await first.decode();
      const png = await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } })
        .png({ compressionLevel: 1 })
        .toBuffer();
      return { input: png, format: 'heic', width, height, warnings: photoWarnings(width, height) };
    } catch {
      return { unreadable: 'heic' };
    } finally {
      images.dispose();
    }
  }
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS }).metadata();
  } catch {
    return { unreadable: looksLikeImage(bytes) ? 'damaged' : 'not_image' };
  }
  const format = meta.format === 'jpeg' || meta.format === 'png' || meta.format === 'webp' || meta.format === 'gif' ? meta.format : null;
  if (!format) return { unreadable: 'format' };
  const { width, height } = meta.autoOrient;
  if (!width || !height) return { unreadable: 'damaged' };
  if (width * height > PHOTO_MAX_PIXELS) return { unreadable: 'too_many_pixels' };
  return { input: bytes, format, width, height, warnings: photoWarnings(width, height) };
}

/** Whether the bytes start like an image sharp would know (so a failure means a damaged one). */
function looksLikeImage(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(12, bytes.length));
  return (
    (head[0] === 0xff && head[1] === 0xd8) ||
    head.subarray(0, 4).toString('latin1') === '\x89PNG' ||
    head.subarray(0, 4).toString('latin1') === 'GIF8' ||
    (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
  );
}

/**
 * The original kept for the editor: oriented, at most ORIGINAL_MAX_SIDE a side (never enlarged),
 * sRGB on white, JPEG quality 85 (libjpeg, not mozjpeg: half the time, ~45 ms for a 12-megapixel
 * phone JPEG here) — a few hundred kilobytes whatever the phone sent.
 */
export async function originalCopy(photo: ReadPhoto): Promise<Buffer> {
  return sharp(photo.input, { failOn: 'error', limitInputPixels: PHOTO_MAX_PIXELS })
    .autoOrient()
    .resize(ORIGINAL_MAX_SIDE, ORIGINAL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** What a candidate's photo file becomes: the diploma's copy, and the original the editor crops from. */
export interface PhotoFiles {
  /** The photo box's copy (preparePhoto: oriented, centre-top crop, JPEG of at most 30 KB). */
  photo: Buffer;
  /** The original, bounded (originalCopy); null when the file already is the box's copy (ADR 0107). */
  original: Buffer | null;
}

/** A photo file made into the stored files; throws when it cannot be read (the check said so first). */
export async function preparePhotoFiles(bytes: Buffer, box: { w: number; h: number }, limits: PhotoLimits): Promise<PhotoFiles> {
  if (isFittedPhoto(bytes, box, limits)) return { photo: Buffer.from(await preparePhoto(bytes, box, limits)), original: null };
  const read = await readPhoto(bytes);
  if ('unreadable' in read) throw new Error(`photo unreadable: ${read.unreadable}`);
  const [photo, original] = await Promise.all([preparePhoto(read.input, box, limits), originalCopy(read)]);
  return { photo: Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength), original };
}
