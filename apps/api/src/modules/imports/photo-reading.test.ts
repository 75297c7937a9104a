import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_BOX_MM, PHOTO_LIMITS } from './import-checker.ts';
import { isHeif, ORIGINAL_MAX_SIDE, preparePhotoFiles, readPhoto } from './photo-reading.ts';

/** A 360 × 480 portrait encoded by libheif's heif-enc (x265), 1.4 KB: what an iPhone sends, small. */
const HEIC = readFileSync(new URL('./fixtures/portrait.heic', import.meta.url));

const solid = (width: number, height: number, colour: string) => sharp({ create: { width, height, channels: 3, background: colour } });

/** The mean colour of a region of a decoded photo. */
async function meanOf(jpeg: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const { data, info } = await sharp(jpeg).extract(region).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let c = 0; c < 3; c++) sums[c]! += data[i + (info.channels === 1 ? 0 : c)]!;
  return sums.map((s) => Math.round(s / (info.width * info.height)));
}

describe('reading photos as phones take them', () => {
  it('reads a HEIC photo (libheif in WebAssembly): its size, and pixels sharp takes', async () => {
    expect(isHeif(HEIC)).toBe(true);
    const read = await readPhoto(HEIC);
    expect(read).toMatchObject({ format: 'heic', width: 360, height: 480, warnings: [] });
    if ('unreadable' in read) throw new Error('unreadable');
    // The fixture's background is #88aabb (lossy, so nearly).
    const [r, g, b] = await meanOf(await sharp(read.input).jpeg().toBuffer(), { left: 5, top: 5, width: 20, height: 20 });
    expect(Math.abs(r! - 0x88)).toBeLessThan(40);
    expect(Math.abs(g! - 0xaa)).toBeLessThan(40);
    expect(Math.abs(b! - 0xbb)).toBeLessThan(40);
  });

  it('says a damaged HEIC is a HEIC it cannot read, and a text file is no image', async () => {
    const damaged = Buffer.concat([HEIC.subarray(0, 40), Buffer.alloc(200, 7)]);
    expect(await readPhoto(damaged)).toEqual({ unreadable: 'heic' });
    expect(await readPhoto(Buffer.from('pas une photo'))).toEqual({ unreadable: 'not_image' });
    const jpeg = await solid(400, 500, '#c96').jpeg().toBuffer();
    expect(await readPhoto(jpeg.subarray(0, 200))).toEqual({ unreadable: 'damaged' });
    expect(await readPhoto(await solid(400, 500, '#c96').tiff().toBuffer())).toEqual({ unreadable: 'format' });
  });

  it('reads the first frame of an animated GIF', async () => {
    const first = await solid(300, 400, '#cc9966').png().toBuffer();
    const second = await solid(300, 400, '#0000ff').png().toBuffer();
    const gif = await sharp([first, second], { join: { animated: true } })
      .gif()
      .toBuffer();
    const read = await readPhoto(gif);
    expect(read).toMatchObject({ format: 'gif', width: 300, height: 400, warnings: [] });
    const { photo } = await preparePhotoFiles(gif, PHOTO_BOX_MM, PHOTO_LIMITS);
    const [r, , b] = await meanOf(photo, { left: 100, top: 100, width: 100, height: 100 });
    expect(r).toBeGreaterThan(180);
    expect(b).toBeLessThan(140);
  });

  it('warns of a photo too small to print sharp (60 × 80) and of a landscape one, without refusing them', async () => {
    expect(await readPhoto(await solid(60, 80, '#c96').jpeg().toBuffer())).toMatchObject({ warnings: ['photo_too_small'] });
    expect(await readPhoto(await solid(800, 600, '#c96').jpeg().toBuffer())).toMatchObject({ warnings: ['photo_landscape'] });
    expect(await readPhoto(await solid(299, 200, '#c96').png().toBuffer())).toMatchObject({ warnings: ['photo_too_small', 'photo_landscape'] });
    expect(await readPhoto(await solid(300, 400, '#c96').webp().toBuffer())).toMatchObject({ warnings: [] });
  });

  it('crops a 6000 × 4000 landscape to its top centre, where the face is, not to a bright corner', async () => {
    // A grey wall, a face (skin, top centre) and a saturated red poster at the left: an
    // attention crop goes to the poster; the centre-top crop keeps the face.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="4000">
      <rect width="6000" height="4000" fill="#777777"/>
      <rect x="0" y="0" width="1500" height="4000" fill="#ff0000"/>
      <circle cx="3000" cy="1300" r="700" fill="#e0ac69"/>
      <rect x="2200" y="2300" width="1600" height="1700" fill="#222266"/>
    </svg>`;
    const landscape = await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
    const files = await preparePhotoFiles(landscape, PHOTO_BOX_MM, PHOTO_LIMITS);
    expect(await sharp(files.photo).metadata()).toMatchObject({ width: 300, height: 400 });
    const [r, g, b] = await meanOf(files.photo, { left: 130, top: 120, width: 40, height: 30 });
    expect([r, g, b]).toEqual([expect.closeTo(0xe0, -1.5), expect.closeTo(0xac, -1.5), expect.closeTo(0x69, -1.5)]);
    // Nothing of the poster at the photo's left edge.
    const [edgeR, edgeG] = await meanOf(files.photo, { left: 0, top: 0, width: 10, height: 400 });
    expect(edgeR! - edgeG!).toBeLessThan(30);
    // The original is kept, bounded: 1600 px on its long side, a few hundred kilobytes.
    expect(await sharp(files.original!).metadata()).toMatchObject({ format: 'jpeg', width: ORIGINAL_MAX_SIDE, height: Math.round((ORIGINAL_MAX_SIDE * 4000) / 6000) });
    expect(files.original!.length).toBeLessThan(400_000);
  });

  it('keeps the head of a tall photo (3000 × 6000): the top is kept, the legs are cut', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="6000">
      <rect width="3000" height="6000" fill="#777777"/>
      <circle cx="1500" cy="700" r="500" fill="#e0ac69"/>
      <rect x="900" y="1300" width="1200" height="4700" fill="#222266"/>
    </svg>`;
    const files = await preparePhotoFiles(await sharp(Buffer.from(svg)).png().toBuffer(), PHOTO_BOX_MM, PHOTO_LIMITS);
    // Scaled to 300 wide, the head's centre is at y = 70: in the photo, not cut off as a centred crop (rows 550–950 of 1200 kept) would.
    const [r, g, b] = await meanOf(files.photo, { left: 135, top: 60, width: 30, height: 20 });
    expect(r! - b!).toBeGreaterThan(80);
    expect(g).toBeGreaterThan(140);
  });

  it('keeps no second original of a photo already at the box size (ADR 0107)', async () => {
    const fitted = await solid(300, 400, '#c96').jpeg({ quality: 80 }).toBuffer();
    const files = await preparePhotoFiles(fitted, PHOTO_BOX_MM, PHOTO_LIMITS);
    expect(files.original).toBeNull();
    expect(await sharp(files.photo).metadata()).toMatchObject({ width: 300, height: 400 });
  });
});
