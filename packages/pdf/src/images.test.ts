import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { alreadyFittedJpeg, isFittedPhoto, preparePhoto, readJpegInfo } from './images.ts';

const BOX = { w: 38.1, h: 50.8 }; // 300 × 400 pixels at 200 dpi
const LIMITS = { dpi: 200, maxBytes: 30_000 };

async function portrait(width: number, height: number, jpeg: Parameters<ReturnType<typeof sharp>['jpeg']>[0] = { quality: 80 }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#c8d0e0"/><circle cx="${width / 2}" cy="${height * 0.38}" r="${width / 4}" fill="#543"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg(jpeg).toBuffer();
}

/** Inserts a segment (marker, payload) right after SOI. */
function withSegment(jpeg: Uint8Array, marker: number, payload: Uint8Array): Uint8Array {
  const segment = new Uint8Array(4 + payload.length);
  segment.set([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  segment.set(payload, 4);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

const pixels = async (jpeg: Uint8Array) => sharp(jpeg).raw().toBuffer();

describe('preparePhoto', () => {
  it('keeps a photo already fitted to the box byte for byte, without its comments and application data', async () => {
    const fitted = await portrait(300, 400);
    const tagged = withSegment(withSegment(fitted, 0xfe, new TextEncoder().encode('camera serial 1234')), 0xe5, new Uint8Array(40).fill(7));
    const out = await preparePhoto(tagged, BOX, LIMITS);
    expect(Buffer.from(out).includes(Buffer.from('camera serial'))).toBe(false);
    expect(out.length).toBe(fitted.length);
    expect(Buffer.from(out).equals(fitted)).toBe(true);
    expect(await pixels(out)).toEqual(await pixels(fitted));
  });

  it('re-encodes a photo of another size, a progressive one, one with EXIF or a colour profile, and one over the limit', async () => {
    const cases = [
      await portrait(450, 600),
      await portrait(300, 400, { quality: 80, progressive: true }),
      await sharp(await portrait(300, 400))
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer(),
      await sharp(await portrait(300, 400))
        .withIccProfile('p3')
        .jpeg()
        .toBuffer(),
    ];
    for (const input of cases) {
      expect(alreadyFittedJpeg(input, 300, 400, 30_000)).toBeNull();
      const out = await preparePhoto(input, BOX, LIMITS);
      expect(readJpegInfo(out)).toMatchObject({ width: 300, height: 400, components: 3 });
      expect(Buffer.from(out).equals(Buffer.from(input))).toBe(false);
    }
    // Over the byte limit: not passed through.
    const big = await portrait(300, 400, { quality: 100 });
    expect(alreadyFittedJpeg(big, 300, 400, big.length - 1)).toBeNull();
  });

  it('tells without decoding whether preparePhoto would keep a photo as it is', async () => {
    const fitted = await portrait(300, 400);
    expect(isFittedPhoto(fitted, BOX, LIMITS)).toBe(true);
    expect(isFittedPhoto(await portrait(450, 600), BOX, LIMITS)).toBe(false);
    expect(isFittedPhoto(await portrait(300, 400, { quality: 80, progressive: true }), BOX, LIMITS)).toBe(false);
    expect(isFittedPhoto(fitted.subarray(0, fitted.length - 2), BOX, LIMITS)).toBe(false);
    expect(isFittedPhoto(await sharp(fitted).png().toBuffer(), BOX, LIMITS)).toBe(false);
  });

  it('refuses to pass through a truncated or malformed JPEG', async () => {
    const fitted = await portrait(300, 400);
    expect(alreadyFittedJpeg(fitted.subarray(0, fitted.length - 2), 300, 400, 30_000)).toBeNull();
    expect(alreadyFittedJpeg(fitted.subarray(0, 100), 300, 400, 30_000)).toBeNull();
    expect(alreadyFittedJpeg(new Uint8Array([0xff, 0xd8, 0x00, 0x00]), 300, 400, 30_000)).toBeNull();
  });
});
