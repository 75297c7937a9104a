/**
 * `npx tsx apps/web/scripts/icons.ts`: the web app manifest's PNG icons (ADR 0127), drawn from the
 * emblem public/favicon.svg with sharp. Run again when the emblem changes; the PNGs are committed,
 * so a build needs no image tool.
 *
 *   icon-192.png, icon-512.png   the emblem on a transparent ground ("any")
 *   maskable-512.png             the emblem inside the safe zone (the middle 80 %) on the brand blue,
 *                                which a phone may cut to a circle or a rounded square
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/** --color-blue of src/styles/app.css, the manifest's theme colour. */
export const BRAND_BLUE = '#0b3d91';

const web = dirname(dirname(fileURLToPath(import.meta.url)));
const emblem = readFileSync(join(web, 'public', 'favicon.svg'));
const out = join(web, 'public', 'icons');

async function plain(size: number) {
  await sharp(emblem, { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(out, `icon-${size}.png`));
}

async function maskable(size: number) {
  const inner = Math.round(size * 0.7);
  const mark = await sharp(emblem, { density: (72 * inner) / 64 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BRAND_BLUE } })
    .composite([{ input: mark, gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toFile(join(out, `maskable-${size}.png`));
}

await Promise.all([plain(192), plain(512), maskable(512)]);
