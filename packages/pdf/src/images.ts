// Images: the candidate photo (JPEG, passed through untouched when it is already small enough) and
// the signature images (PNG with transparency, decoded once per renderer into an RGB image with an
// alpha soft mask).
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { PdfWriter } from './pdf-syntax.ts';

export interface JpegInfo {
  width: number;
  height: number;
  components: number;
  bitsPerComponent: number;
}

/** Reads the frame header of a JPEG (baseline or progressive). Returns null if it is not a JPEG. */
export function readJpegInfo(bytes: Uint8Array): JpegInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        bitsPerComponent: bytes[i + 4]!,
        height: (bytes[i + 5]! << 8) | bytes[i + 6]!,
        width: (bytes[i + 7]! << 8) | bytes[i + 8]!,
        components: bytes[i + 9]!,
      };
    }
    i += 2 + length;
  }
  return null;
}

export interface PhotoLimits {
  /** Target resolution at the printed size. */
  dpi: number;
  /** Largest JPEG embedded as is. */
  maxBytes: number;
}

export const defaultPhotoLimits: PhotoLimits = { dpi: 200, maxBytes: 30_000 };

function pixelsFor(mm: number, dpi: number): number {
  return Math.max(1, Math.round((mm / 25.4) * dpi));
}

/** True when the JPEG can go into the PDF byte for byte (small, 8-bit grey or RGB, not oversized). */
export function isPhotoReady(info: JpegInfo | null, byteLength: number, boxMm: { w: number; h: number }, limits: PhotoLimits = defaultPhotoLimits): boolean {
  if (!info) return false;
  if (info.bitsPerComponent !== 8 || (info.components !== 1 && info.components !== 3)) return false;
  if (byteLength > limits.maxBytes) return false;
  // Accept up to 1.5 times the target pixel size: re-encoding would only lose quality.
  return info.width <= pixelsFor(boxMm.w, limits.dpi) * 1.5 && info.height <= pixelsFor(boxMm.h, limits.dpi) * 1.5;
}

/**
 * The JPEG without its metadata when it needs no work: a baseline 8-bit grey or YCbCr (JFIF) JPEG
 * of exactly `width` × `height` pixels and at most `maxBytes`, without a colour profile (so sRGB is
 * assumed, as for any untagged image), EXIF (so no orientation to apply) or Adobe colour transform.
 * Anything else (progressive, CMYK, tagged, rotated, another size, a malformed file) gives null and
 * goes through sharp. Segments kept: JFIF (APP0), tables, frame, scan and the entropy-coded data;
 * dropped: comments and the other application segments (whatever they carry).
 */
export function alreadyFittedJpeg(bytes: Uint8Array, width: number, height: number, maxBytes: number): Uint8Array | null {
  if (bytes.length > maxBytes || bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let frame: JpegInfo | null = null;
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return null; // not where a header segment belongs
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    const end = i + 2 + length;
    if (length < 2 || end > bytes.length) return null;
    if (marker === 0xda) {
      // Start of scan: everything from here is image data up to EOI, kept as is.
      if (!frame || frame.width !== width || frame.height !== height) return null;
      if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return null;
      kept.push(bytes.subarray(i));
      const out = new Uint8Array(kept.reduce((n, k) => n + k.length, 0));
      let at = 0;
      for (const k of kept) {
        out.set(k, at);
        at += k.length;
      }
      return out;
    }
    if (marker === 0xc0 || marker === 0xc1) {
      if (length < 8) return null;
      frame = { bitsPerComponent: bytes[i + 4]!, height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]!, components: bytes[i + 9]! };
      if (frame.bitsPerComponent !== 8 || (frame.components !== 1 && frame.components !== 3)) return null;
      kept.push(bytes.subarray(i, end));
    } else if (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xcc) {
      return null; // progressive, lossless, arithmetic-coded: let sharp decide
    } else if (marker === 0xe1 || marker === 0xe2 || marker === 0xee) {
      return null; // EXIF (orientation), ICC profile, Adobe transform: let sharp apply them
    } else if (marker === 0xe0) {
      if (length >= 7 && bytes[i + 4] === 0x4a && bytes[i + 5] === 0x46 && bytes[i + 6] === 0x49 && bytes[i + 7] === 0x46 && bytes[i + 8] === 0) kept.push(bytes.subarray(i, end));
    } else if ((marker >= 0xe3 && marker <= 0xef) || marker === 0xfe) {
      // Other application data and comments: dropped.
    } else {
      kept.push(bytes.subarray(i, end)); // DQT, DHT, DRI, …
    }
    i = end;
  }
  return null;
}

/**
 * True when `preparePhoto` would return the photo as it is (minus metadata), without decoding it:
 * a well-formed baseline JPEG already at the box's pixel size and under the byte limit. Reads only
 * the segment headers (microseconds), so an import can check such a photo without sharp.
 */
export function isFittedPhoto(input: Uint8Array, boxMm: { w: number; h: number }, limits: PhotoLimits = defaultPhotoLimits): boolean {
  return alreadyFittedJpeg(input, pixelsFor(boxMm.w, limits.dpi), pixelsFor(boxMm.h, limits.dpi), limits.maxBytes) !== null;
}

/**
 * Fits a photo to the photo box at the target resolution (cover, centre-top: a wide photo keeps its
 * middle, a tall one its top, where the head is — ADR 0147) and re-encodes it as a
 * JPEG under the byte limit. Costs a few milliseconds: do it once when the photo is validated
 * and store the result, so that rendering embeds it as is.
 */
export async function preparePhoto(input: Uint8Array, boxMm: { w: number; h: number }, limits: PhotoLimits = defaultPhotoLimits): Promise<Uint8Array> {
  const width = pixelsFor(boxMm.w, limits.dpi);
  const height = pixelsFor(boxMm.h, limits.dpi);
  // A photo already at the box's exact pixel size and under the limit would only lose quality (and
  // cost ~10-20 ms) by being decoded and encoded again: its metadata is dropped, its image kept.
  const ready = alreadyFittedJpeg(input, width, height, limits.maxBytes);
  if (ready) return ready;
  const resized = sharp(input, { failOn: 'error' }).rotate().resize(width, height, { fit: 'cover', position: 'north' }).toColourspace('srgb').flatten({ background: '#ffffff' });
  let output: Buffer = Buffer.alloc(0);
  for (const quality of [82, 72, 62, 52, 42]) {
    output = await resized.clone().jpeg({ quality, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
    if (output.length <= limits.maxBytes) break;
  }
  return output;
}

/** Writes a JPEG as an image XObject (DCTDecode, bytes untouched); returns its object number. */
export function writeJpeg(writer: PdfWriter, jpeg: Uint8Array, info: JpegInfo): number {
  const objectNumber = writer.allocate();
  const colorSpace = info.components === 1 ? '/DeviceGray' : '/DeviceRGB';
  writer.writeStream(
    objectNumber,
    `/Type /XObject /Subtype /Image /Width ${info.width} /Height ${info.height} /ColorSpace ${colorSpace} /BitsPerComponent 8 /Filter /DCTDecode`,
    jpeg,
    { compress: false },
  );
  return objectNumber;
}

/** A Flate stream of PNG-filtered rows (the IDAT data of a PNG), as PDF reads it with /Predictor 15. */
export interface PngSamples {
  width: number;
  height: number;
  colors: 1 | 3;
  data: Uint8Array;
}

export interface RgbaImage {
  width: number;
  height: number;
  color: PngSamples;
  alpha: PngSamples | null;
}

/** Takes the zlib stream out of a non-interlaced 8-bit grey or RGB PNG. */
function pngSamples(png: Uint8Array): PngSamples {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  let colors: 1 | 3 = 1;
  for (let i = 8; i + 8 <= view.length; ) {
    const length = view.readUInt32BE(i);
    const type = view.toString('latin1', i + 4, i + 8);
    const data = view.subarray(i + 8, i + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const bitDepth = data[8];
      const colorType = data[9];
      if (bitDepth !== 8 || (colorType !== 0 && colorType !== 2) || data[12] !== 0) throw new Error('unexpected PNG layout');
      colors = colorType === 0 ? 1 : 3;
    }
    if (type === 'IDAT') idat.push(data);
    i += 12 + length;
  }
  return { width, height, colors, data: Buffer.concat(idat) };
}

/**
 * Decodes a signature image (PNG or any format sharp reads) scaled to fit the box at `dpi`, as
 * colour plus alpha. A signature in one ink (the usual case) becomes a 1×1 colour image under its
 * alpha mask: the mask carries the strokes, and the file pays for one plane instead of four.
 */
export async function prepareSignatureImage(input: Uint8Array, boxMm: { w: number; h: number }, dpi = 200): Promise<RgbaImage> {
  const { data, info } = await sharp(input, { failOn: 'error' })
    .resize(pixelsFor(boxMm.w, dpi), pixelsFor(boxMm.h, dpi), { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  const raw = { width: info.width, height: info.height, channels: 4 as const };
  let opaque = true;
  const sum = [0, 0, 0];
  let inked = 0;
  for (let p = 0; p < pixels; p++) {
    const a = data[p * 4 + 3]!;
    if (a !== 255) opaque = false;
    if (a > 128) {
      for (let c = 0; c < 3; c++) sum[c]! += data[p * 4 + c]!;
      inked++;
    }
  }
  const mean = sum.map((v) => Math.round(v / Math.max(1, inked)));
  let spread = 0;
  for (let p = 0; p < pixels && !opaque; p++) {
    if (data[p * 4 + 3]! <= 128) continue;
    for (let c = 0; c < 3; c++) spread = Math.max(spread, Math.abs(data[p * 4 + c]! - mean[c]!));
  }
  const png = (image: ReturnType<typeof sharp>) => image.png({ compressionLevel: 9, adaptiveFiltering: true, palette: false }).toBuffer();
  const alpha = opaque ? null : pngSamples(await png(sharp(data, { raw }).extractChannel(3).toColourspace('b-w')));
  const singleInk = !opaque && spread <= 48;
  const color: PngSamples = singleInk
    ? { width: 1, height: 1, colors: 3, data: deflateSync(Uint8Array.of(0, mean[0]!, mean[1]!, mean[2]!)) }
    : pngSamples(await png(sharp(data, { raw }).removeAlpha()));
  return { width: info.width, height: info.height, color, alpha };
}

function writePngSamples(writer: PdfWriter, objectNumber: number, samples: PngSamples, extra = ''): void {
  writer.writeStream(
    objectNumber,
    `/Type /XObject /Subtype /Image /Width ${samples.width} /Height ${samples.height} /ColorSpace ${samples.colors === 1 ? '/DeviceGray' : '/DeviceRGB'} /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${samples.colors} /Columns ${samples.width} >>${extra}`,
    samples.data,
    { compress: false },
  );
}

/** Writes an image with its soft mask; returns the image's object number. */
export function writeRgbaImage(writer: PdfWriter, image: RgbaImage): number {
  const objectNumber = writer.allocate();
  let smask = '';
  if (image.alpha) {
    const maskNumber = writer.allocate();
    writePngSamples(writer, maskNumber, image.alpha);
    smask = ` /SMask ${maskNumber} 0 R`;
  }
  writePngSamples(writer, objectNumber, image.color, smask);
  return objectNumber;
}
