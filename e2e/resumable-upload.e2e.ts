/**
 * A large list and photos zip on a network that drops (issue 15 item 4, ADR 0150), in a real
 * browser against the real server: the files go by resumable upload (tus) in pieces; a piece lost
 * on the way is sent again from the offset the server kept, not from zero; and after a page reload
 * in the middle of an upload, choosing the same files resumes it where it stopped.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Request } from '@playwright/test';
import sharp from 'sharp';
import yazl from 'yazl';
import { signIn } from './support.ts';

const HEADERS = ['code_candidat', 'nom', 'prenom', 'date_naissance', 'lieu_naissance', 'sexe', 'option', 'ecole', 'centre', 'pourcentage'];

function list(codes: string[]): Buffer {
  const rows = codes.map((code, i) => [
    code,
    ['Mbala', 'Kasongo'][i % 2]!,
    ['Ruth', 'David'][i % 2]!,
    '12/05/2007',
    'Kinshasa',
    i % 2 ? 'M' : 'F',
    'LIT',
    'KIN-FUN-C1-E1',
    'KIN-FUN-C1',
    '66,5',
  ]);
  return Buffer.from(`${[HEADERS, ...rows].map((r) => r.join(';')).join('\r\n')}\r\n`, 'utf8');
}

/** A photo as a phone's camera writes it: large, full of detail (noise), some 1.5 MB. */
async function heavyPhoto(seed: number): Promise<Buffer> {
  const width = 1200;
  const height = 1600;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    pixels[i] = x & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function photosZip(codes: string[]): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const [i, code] of codes.entries()) file.addBuffer(await heavyPhoto(i + 1), `${code}.jpg`, { compress: false });
  file.end();
  const chunks: Buffer[] = [];
  for await (const chunk of file.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Signs in, opens the national template's /check-file and fills the session and province. */
async function openCheckFile(page: Page): Promise<void> {
  await page.goto('/certificates');
  await page.getByRole('link', { name: "Choisir le modèle Diplôme d'État", exact: true }).click();
  await expect(page).toHaveURL(/\/check-file\/\d+$/);
  await page.getByLabel('Session', { exact: true }).selectOption({ label: 'Session 2026' });
  await page.getByLabel('Province éducationnelle').selectOption({ label: 'Kinshasa-Funa' });
}

/** The tus requests the page makes: method and the offset each piece starts from. */
function recordUploads(page: Page): { method: string; offset: number | null; url: string }[] {
  const seen: { method: string; offset: number | null; url: string }[] = [];
  page.on('request', (request: Request) => {
    if (!/\/api\/uploads/.test(request.url())) return;
    const offset = request.headers()['upload-offset'];
    seen.push({ method: request.method(), offset: offset === undefined ? null : Number(offset), url: request.url() });
  });
  return seen;
}

let folder: string;
test.beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'sceau-e2e-resumable-'));
});
test.afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('a piece lost on the way is sent again from where the server stopped, and the check reads both files', async ({ page }) => {
  test.setTimeout(180_000);
  const codes = ['20269300000001', '20269300000002'];
  const zip = await photosZip(codes);
  expect(zip.length).toBeGreaterThan(2 * 1024 * 1024);
  await signIn(page, 'admin@sceau.example');
  await openCheckFile(page);
  const seen = recordUploads(page);
  // The list goes in one piece, the zip in pieces of 1 MB: the zip's second piece never reaches the server.
  let patches = 0;
  await page.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH' && ++patches === 3) return route.abort('connectionreset');
    return route.continue();
  });
  await page.getByLabel('Liste des candidats (CSV, XLSX ou ODS)').setInputFiles({ name: 'liste.csv', mimeType: 'text/csv', buffer: list(codes) });
  await page.getByLabel(/^Photos des candidats \(zip\)/).setInputFiles({ name: 'photos.zip', mimeType: 'application/zip', buffer: zip });
  await page.getByRole('button', { name: 'Vérifier le fichier' }).click();

  await expect(page.getByTestId('check-rows')).toHaveText('2', { timeout: 120_000 });
  await expect(page.getByTestId('check-photos')).toHaveText('2 / 2');
  await expect(page.getByTestId('check-verdict')).toHaveText('Aucun problème : les 2 candidats peuvent être importés.');

  // Two uploads (the list, the zip); the lost piece went again from its offset, 1 MB, after asking
  // the server where it stood (HEAD); nothing started over from zero.
  expect(seen.filter((r) => r.method === 'POST')).toHaveLength(2);
  const offsets = seen.filter((r) => r.method === 'PATCH').map((r) => r.offset);
  expect(offsets.filter((offset) => offset === 1024 * 1024)).toHaveLength(2);
  expect(offsets.filter((offset) => offset === 0)).toHaveLength(2);
  expect(seen.some((r) => r.method === 'HEAD')).toBe(true);
});

test('after a reload in the middle of an upload, choosing the same files resumes it where it stopped', async ({ page }) => {
  test.setTimeout(180_000);
  const codes = ['20269300000011', '20269300000012'];
  // Files on disk keep their date: the browser knows them again after the reload.
  const listFile = path.join(folder, 'liste-reprise.csv');
  const zipFile = path.join(folder, 'photos-reprise.zip');
  await writeFile(listFile, list(codes));
  await writeFile(zipFile, await photosZip(codes));
  await signIn(page, 'admin@sceau.example', { remember: true });
  await openCheckFile(page);
  // The list, then the zip's first piece; then the network is gone.
  let pieces = 0;
  await page.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH' && ++pieces > 2) return route.abort('internetdisconnected');
    return route.continue();
  });
  await page.getByLabel('Liste des candidats (CSV, XLSX ou ODS)').setInputFiles(listFile);
  await page.getByLabel(/^Photos des candidats \(zip\)/).setInputFiles(zipFile);
  await page.getByRole('button', { name: 'Vérifier le fichier' }).click();
  await expect(page.getByTestId('upload-reconnecting')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('upload-reconnecting')).toContainText('Connexion perdue');

  // The network is back, the page reloaded; the same files chosen again.
  await page.unroute('**/api/uploads/*');
  await page.reload();
  const seen = recordUploads(page);
  await page.getByLabel('Session', { exact: true }).selectOption({ label: 'Session 2026' });
  await page.getByLabel('Province éducationnelle').selectOption({ label: 'Kinshasa-Funa' });
  await page.getByLabel('Liste des candidats (CSV, XLSX ou ODS)').setInputFiles(listFile);
  await page.getByLabel(/^Photos des candidats \(zip\)/).setInputFiles(zipFile);
  await page.getByRole('button', { name: 'Vérifier le fichier' }).click();
  await expect(page.getByTestId('check-photos')).toHaveText('2 / 2', { timeout: 120_000 });
  // The list (finished, so forgotten by the browser) is sent whole again; the zip is no new upload:
  // it goes on from the 1 MB the server had.
  expect(seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  const offsets = seen.filter((r) => r.method === 'PATCH').map((r) => r.offset);
  expect(offsets.filter((offset) => offset === 0)).toHaveLength(1);
  expect(offsets).toContain(1024 * 1024);
});
