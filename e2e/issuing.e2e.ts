/**
 * The whole issuing journey in a real browser (issue 7, item 1; issue 5's "how it will be checked"),
 * as the ministry's staff live it, each with their own account:
 * - the admin chooses the country's template, sends a list written like a real one (accents,
 *   apostrophes, hyphenated names, dates in several formats) with its errors, reads them by row and
 *   column, sends the corrected list and follows its import; edits and validates photos, rejects a
 *   candidate, corrects and validates data; launches the generation with the code from the outbox,
 *   follows it, applies the signature;
 * - root broadcasts the batch to its candidates (the message reaches the outbox with the link);
 * - the back-office manager downloads the zip, verifies one diploma of it by upload, and e-mails one.
 * And keyboard-only data validation (issue 7, item 2) on a small batch imported through the API.
 * Every screen state is audited (axe, language) and photographed as `issuing-<step>-<locale>-<width>`;
 * the validation screens at 390 px too; the key screens once more in English.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import * as XLSX from '@e965/xlsx';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { auditPage, useLocale, VIEWPORTS, type Locale, type Width } from './page-audit.ts';
import { DEMO_PASSWORD, lastCode, signIn, snap, tabTo } from './support.ts';

// ------------------------------------------------------------------------------------------ data

const HEADERS = [
  'code_candidat',
  'nom',
  'postnom',
  'prenom',
  'date_naissance',
  'lieu_naissance',
  'sexe',
  'option',
  'ecole',
  'centre',
  'pourcentage',
  'photo',
  'telephone',
  'email',
];
const SCHOOL = 'KIN-FUN-C1-E1';
const CENTRE = 'KIN-FUN-C1';
const PROVINCE = 'Kinshasa-Funa';
/** No French or English common word in it: it is shown as data on pages of both languages. */
const TITLE = 'Kinshasa-Funa — Session 2026 — Institut Bonsomi';

type Row = Record<(typeof HEADERS)[number], string | Date>;

function row(values: Partial<Row> & Pick<Row, 'code_candidat' | 'nom' | 'prenom'>): Row {
  return {
    postnom: '',
    date_naissance: '',
    lieu_naissance: '',
    sexe: '',
    option: '',
    ecole: SCHOOL,
    centre: CENTRE,
    pourcentage: '',
    photo: '',
    telephone: '',
    email: '',
    ...values,
  } as Row;
}

/** The list as a school's secretary exported it first, from Excel on a French Windows: seven candidates, five problems. */
const LIST_WITH_ERRORS: Row[] = [
  row({
    code_candidat: '20269100000001',
    nom: 'Kabongo',
    postnom: 'wa Ilunga',
    prenom: 'Marie-Claire',
    date_naissance: '14/03/2007',
    lieu_naissance: 'Kinshasa',
    sexe: 'F',
    option: 'LIT',
    pourcentage: '72,5',
    photo: 'IMG_0001.JPG',
    telephone: '+243 81 234 5678',
    email: 'marie-claire.kabongo@example.cd',
  }),
  row({
    code_candidat: '20269100000002',
    nom: "N'Sele",
    postnom: 'Mbuyi',
    prenom: 'Jean-Baptiste',
    date_naissance: '2006-11-02',
    lieu_naissance: 'Mbuji-Mayi',
    sexe: 'M',
    option: 'Secrétariat-Administration',
    pourcentage: '68.1',
    telephone: '0991234567',
    email: 'jean-baptiste.nsele@@example.cd',
  }),
  row({
    code_candidat: '2026 9100 0000 3',
    nom: 'Lukusa',
    postnom: 'Tshibola',
    prenom: 'Bénédicte',
    date_naissance: '21.07.2007',
    lieu_naissance: 'Kananga',
    sexe: 'Féminin',
    option: 'ELE',
    pourcentage: '80 %',
  }),
  row({
    code_candidat: '20269100000004',
    nom: 'Mukendi-Kalala',
    prenom: 'Aimé',
    date_naissance: '31/02/2006',
    lieu_naissance: 'Lubumbashi',
    sexe: 'Garçon',
    option: 'CON',
    pourcentage: '55',
  }),
  row({
    code_candidat: '20269100000005',
    nom: 'D’Almeida',
    postnom: 'Kasongo',
    prenom: 'Élodie',
    date_naissance: '30-12-2006',
    lieu_naissance: 'Kisangani',
    sexe: 'Fille',
    option: 'LIT',
    pourcentage: '61,5',
    telephone: '08123',
  }),
  row({
    code_candidat: '20269100000006',
    nom: 'Ngoy',
    postnom: 'Ilunga',
    prenom: 'Gaëtan',
    date_naissance: '2007-01-15',
    lieu_naissance: 'Likasi',
    sexe: 'H',
    option: 'SA',
    pourcentage: '58',
  }),
  row({
    code_candidat: '20269100000002',
    nom: 'Tshibangu',
    prenom: 'Rachel',
    date_naissance: '05/05/2007',
    lieu_naissance: 'Mbandaka',
    sexe: 'F',
    option: 'LIT',
    pourcentage: '66',
  }),
];

/**
 * The same list corrected, saved as a workbook this time (one birth date typed as a spreadsheet date),
 * naming the school and the centre as secretaries do, by name, in capitals, without accents, with
 * "St" (ADR 0139): "Lycée Lumière" is also a school of another province, the list's province decides.
 */
const SCHOOL_NAMED = 'LYCEE LUMIERE';
const CENTRE_NAMED = 'centre institut st joseph';
const LIST_CORRECTED: Row[] = LIST_WITH_ERRORS.map((original, i) => {
  const r = { ...original, ecole: SCHOOL_NAMED, centre: CENTRE_NAMED };
  if (i === 1) return { ...r, email: 'jean-baptiste.nsele@example.cd' };
  if (i === 2) return { ...r, code_candidat: '2026 9100 0000 03' };
  if (i === 3) return { ...r, date_naissance: '28/02/2006' };
  if (i === 4) return { ...r, telephone: '0812345670' };
  if (i === 5) return { ...r, date_naissance: new Date(Date.UTC(2007, 0, 15)) };
  if (i === 6) return { ...r, code_candidat: '20269100000007' };
  return r;
});
const CODES = LIST_CORRECTED.map((r) => String(r.code_candidat).replace(/\D/g, ''));

function csv(rows: Row[]): Buffer {
  const cell = (v: string | Date) => {
    const text = v instanceof Date ? v.toISOString().slice(0, 10) : v;
    return /[;"\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [HEADERS.map((h) => (h === 'date_naissance' ? 'Date de naissance' : h)).join(';'), ...rows.map((r) => HEADERS.map((h) => cell(r[h]!)).join(';'))];
  // A byte-order mark and CRLF, as Excel writes "CSV UTF-8".
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')]);
}

/**
 * The corrected list as another office program writes it: SheetJS (not exceljs, which the platform
 * reads with), a title line above the headers, dates as real date cells, codes and phones as text.
 */
async function xlsx(rows: Row[]): Promise<Buffer> {
  const title = ['Liste des lauréats — Institut Bonsomi'];
  const headers = HEADERS.map((h) => (h === 'lieu_naissance' ? 'Lieu de naissance' : h));
  const sheet = XLSX.utils.aoa_to_sheet([title, headers, ...rows.map((r) => HEADERS.map((h) => r[h]))], { cellDates: true, dateNF: 'dd/mm/yyyy' });
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Lauréats 2026');
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx', cellDates: false }) as Buffer;
}

/** An identity photo as a phone takes it: a face on a coloured wall, 600 × 800 JPEG. */
async function photo(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect width="600" height="800" fill="hsl(${hue},45%,70%)"/>
    <ellipse cx="300" cy="330" rx="150" ry="190" fill="hsl(25,45%,${35 + (hue % 20)}%)"/>
    <rect x="130" y="560" width="340" height="240" rx="80" fill="hsl(${(hue + 180) % 360},50%,35%)"/>
    <circle cx="245" cy="300" r="18" fill="#222"/><circle cx="355" cy="300" r="18" fill="#222"/>
    <path d="M240 420 Q300 460 360 420" stroke="#5a2a20" stroke-width="10" fill="none"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function zip(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const entry of entries) file.addBuffer(entry.data, entry.name);
  file.end();
  const chunks: Buffer[] = [];
  for await (const chunk of file.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file of a zip, by name. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, archive) => {
      if (error || !archive) return reject(error);
      const files = new Map<string, Buffer>();
      archive.on('error', reject);
      archive.on('end', () => resolve(files));
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return archive.readEntry();
        archive.openReadStream(entry, (failure, stream) => {
          if (failure || !stream) return reject(failure);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

async function photosZip(): Promise<Buffer> {
  // Row 2 names its photo; the others are found by code, one in a folder, as zips from phones are.
  return zip([
    { name: 'photos/IMG_0001.JPG', data: await photo(200) },
    ...(await Promise.all(CODES.slice(1).map(async (code, i) => ({ name: i % 2 ? `${code}.jpg` : `photos/${code}.jpeg`, data: await photo(30 + i * 50) })))),
  ]);
}

// ----------------------------------------------------------------------------------------- helpers

async function bearer(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const login = await request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: email, password: DEMO_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).access_token}` };
}

/** A page of its own (its own browser context) for a member of staff, signed in. */
async function staffPage(browser: Browser, email: string, locale: Locale = 'fr'): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: locale === 'fr' ? 'fr-FR' : 'en-GB', viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  await useLocale(page, locale);
  await signIn(page, email);
  return page;
}

/** Audits the page and photographs it at both widths (the validation screens). */
async function auditBothWidths(page: Page, name: string, locale: Locale): Promise<void> {
  await auditPage(page, name, locale, 'desktop');
  await page.setViewportSize(VIEWPORTS.phone);
  await auditPage(page, name, locale, 'phone');
  await page.setViewportSize(VIEWPORTS.desktop);
}

const name = (r: Row) => [r.nom, r.postnom, r.prenom].filter(Boolean).join(' ').replace('’', "'");
const [MARIE, JEAN, , AIME, , GAETAN, RACHEL] = LIST_CORRECTED.map(name);

// ----------------------------------------------------------------------------------------- journey

test('the whole issuing journey: template, list with errors then corrected, photos, data, rejection, launch, signature, broadcast, one PDF and the zip, verification, e-mail', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const locale: Locale = 'fr';
  const desktop: Width = 'desktop';
  await useLocale(page, locale);
  await signIn(page, 'admin@sceau.example');
  let batchId = 0;
  let templateId = 0;

  await test.step("1. /certificates: the country's Diplôme d'État", async () => {
    await page.goto('/certificates');
    const choose = page.getByRole('link', { name: "Choisir le modèle Diplôme d'État", exact: true });
    await expect(choose).toBeVisible();
    await auditPage(page, 'issuing-1-certificates', locale, desktop);
    await choose.click();
    await expect(page).toHaveURL(/\/check-file\/\d+$/);
    templateId = Number(page.url().split('/').pop());
    await expect(page.getByRole('heading', { name: "Modèle : Diplôme d'État" })).toBeVisible();
  });

  await test.step('2. /check-file: session and province required, a list with errors seen by row and column', async () => {
    await expect(page.getByLabel('Session', { exact: true })).toHaveValue(/\d+/);
    await page.getByLabel('Session', { exact: true }).selectOption({ label: 'Session 2026' });
    await auditPage(page, 'issuing-2-check-file', locale, desktop);
    // Forgotten province and list: said at the fields, nothing sent.
    await page.getByRole('button', { name: 'Vérifier le fichier' }).click();
    await expect(page.getByText('La province éducationnelle est requise')).toBeVisible();
    await expect(page.getByText('Choisissez la liste des candidats')).toBeVisible();
    await expect(page.getByLabel('Province éducationnelle')).toBeFocused();

    await page.getByLabel('Province éducationnelle').selectOption({ label: PROVINCE });
    // The province's schools, centres and options are offered with their codes, searchable without accents.
    const places = page.getByTestId('province-places');
    await places.getByLabel(/Chercher une école/).fill('lycee lumiere');
    await expect(places.getByTestId('places-schools').getByText(SCHOOL)).toBeVisible();
    await page.getByLabel('Liste des candidats (CSV, XLSX ou ODS)').setInputFiles({ name: 'Liste lauréats Bonsomi 2026.csv', mimeType: 'text/csv', buffer: csv(LIST_WITH_ERRORS) });
    await page.getByLabel(/^Photos des candidats \(zip\)/).setInputFiles({ name: 'photos-bonsomi.zip', mimeType: 'application/zip', buffer: await photosZip() });
    await page.getByRole('button', { name: 'Vérifier le fichier' }).click();

    const result = page.getByTestId('check-result');
    await expect(result.getByRole('heading', { name: 'Résultat de la vérification' })).toBeFocused();
    await expect(page.getByTestId('check-rows')).toHaveText('7');
    await expect(page.getByTestId('check-valid-rows')).toHaveText('2');
    await expect(page.getByTestId('check-error-count')).toHaveText('5');
    // Photos are matched to the rows that are valid.
    await expect(page.getByTestId('check-photos')).toHaveText('2 / 7');
    await expect(page.getByTestId('check-verdict')).toHaveText("5 problèmes à corriger avant l'import.");
    // Each problem at its line (the header is line 1) and column, in French.
    const errors = page.getByTestId('check-errors').locator('tbody tr');
    const problems = await errors.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    expect(problems).toEqual(
      expect.arrayContaining([
        ['3', 'email', 'Adresse e-mail invalide'],
        ['4', 'code_candidat', 'Le code candidat doit compter exactement 14 chiffres'],
        ['5', 'date_naissance', "Cette date n'existe pas"],
        ['8', 'code_candidat', 'Ce code candidat figure déjà à la ligne 3'],
      ]),
    );
    expect(problems.find((p) => p[0] === '6')?.slice(0, 2)).toEqual(['6', 'telephone']);
    expect(problems).toHaveLength(5);
    await expect(page.getByTestId('start-import')).toHaveCount(0);
    await auditPage(page, 'issuing-2-check-errors', locale, desktop);
    await page.setViewportSize(VIEWPORTS.phone);
    await auditPage(page, 'issuing-2-check-errors', locale, 'phone');
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  await test.step('2. /check-file: the corrected list (XLSX) is clean and imported, its progress followed to the end', async () => {
    await page.getByLabel('Liste des candidats (CSV, XLSX ou ODS)').setInputFiles({
      name: 'Liste lauréats Bonsomi 2026 corrigée.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await xlsx(LIST_CORRECTED),
    });
    await expect(page.getByText('Un nouvel envoi remplace la liste du brouillon déjà vérifié.')).toBeVisible();
    await page.getByRole('button', { name: 'Vérifier à nouveau' }).click();
    await expect(page.getByTestId('check-verdict')).toHaveText('Aucun problème : les 7 candidats peuvent être importés.');
    await expect(page.getByTestId('check-photos')).toHaveText('7 / 7');
    await expect(page.getByTestId('check-errors')).toHaveCount(0);
    await auditPage(page, 'issuing-2-check-clean', locale, desktop);

    // Every answer of the import's tracking, to see it go to its end.
    const tracked: { status: string; percent: number; rows_done: number }[] = [];
    page.on('response', async (response) => {
      if (/\/api\/importations\/\d+\/tracking/.test(response.url()) && response.ok()) tracked.push((await response.json()).data);
    });
    await page.getByLabel('Titre du lot').fill('ab');
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    await expect(page.getByText('Le titre compte de 3 à 200 caractères')).toBeVisible();
    await page.getByLabel('Titre du lot').fill(TITLE);
    // The first answer of the tracking is held back until the progress has been looked at: a small
    // list may be imported before the page could show it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route('**/api/importations/*/tracking', async (route) => {
      if (first) {
        first = false;
        await held;
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    const progress = page.getByTestId('import-progress');
    await expect(progress.getByRole('heading', { name: 'Import de la liste' })).toBeFocused();
    await expect(page).toHaveURL(/\/check-file\/\d+\?importation=\d+$/);
    await expect(progress.getByRole('progressbar', { name: "Progression de l'import" })).toBeVisible();
    await expect(progress.getByTestId('import-status')).toHaveText("Import en file d'attente…");
    await snap(page, `issuing-2-import-progress-${locale}-${desktop}`);
    release();
    await expect(page).toHaveURL(/\/show\/\d+$/, { timeout: 60_000 });
    await page.unroute('**/api/importations/*/tracking');
    await expect(page.getByRole('status').filter({ hasText: 'Liste importée : 7 candidats ajoutés au lot.' })).toBeVisible();
    await expect.poll(() => tracked.at(-1)?.status).toBe('completed');
    expect(tracked.at(-1)).toMatchObject({ status: 'completed', percent: 100, rows_done: 7 });
    expect(tracked.every((t, i) => i === 0 || t.percent >= tracked[i - 1]!.percent)).toBe(true);
    batchId = Number(page.url().split('/').pop());
    await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible();
    await expect(page.getByTestId('batch-count-items')).toHaveText('7');
    await expect(page.getByText('En attente de validation').first()).toBeVisible();
    await auditPage(page, 'issuing-2-show-imported', locale, desktop);
  });

  await test.step('3. /validate-picture: one photo edited (brightness, crop) and saved, the others validated, one candidate rejected', async () => {
    const headers = await bearer(page.request, 'admin@sceau.example');
    const photoOf = async (code: string) => {
      const list = (await (await page.request.get(`/api/validations/photos/${batchId}?search=${code}`, { headers })).json()).data;
      return (await page.request.get(list[0].photo_url, { headers })).body();
    };
    const before = await photoOf(CODES[0]!);

    await page.getByRole('link', { name: 'Valider les photos' }).click();
    await expect(page).toHaveURL(new RegExp(`/validate-picture/${batchId}$`));
    await expect(page.getByRole('img', { name: `Photo de ${MARIE}` })).toBeVisible();
    await expect(page.getByTestId('count-pending')).toHaveText('7 en attente');
    await auditBothWidths(page, 'issuing-3-validate-picture', locale);

    await page.getByRole('button', { name: `Modifier la photo de ${MARIE}` }).click();
    const editor = page.getByRole('dialog', { name: `Modifier la photo de ${MARIE}` });
    await expect(editor.getByRole('img', { name: `Aperçu de la photo de ${MARIE}` })).toBeVisible();
    // The editor works on the original the phone took (600 × 800), kept beside the 300 × 400 copy (ADR 0147).
    await expect(editor.getByText("Photo d'origine : 600 × 800 px")).toBeVisible();
    const brightness = editor.getByRole('slider', { name: /^Luminosité/ });
    await brightness.focus();
    for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowRight');
    await expect(brightness).toHaveAttribute('aria-valuetext', '115 %');
    await editor.getByLabel('Recadrer la photo').check();
    await editor.getByLabel('Gauche (x)').fill('60');
    await editor.getByLabel('Haut (y)').fill('80');
    await editor.getByLabel('Largeur (w)').fill('480');
    await editor.getByLabel('Hauteur (h)').fill('640');
    await expect(editor.getByTestId('photo-crop-value')).toHaveText('Zone gardée : 480 × 640 px, à 60 px du bord gauche et 80 px du haut');
    await auditPage(page, 'issuing-3-photo-editor', locale, desktop);
    await editor.getByRole('button', { name: 'Enregistrer et valider' }).click();
    await expect(editor).toHaveCount(0);
    const marieCard = page.getByRole('listitem').filter({ hasText: MARIE });
    await expect(marieCard.locator('[data-validation="photo-validated"]')).toBeVisible();
    // The edit was applied to the stored photo, not only to the preview.
    expect((await photoOf(CODES[0]!)).equals(before)).toBe(false);

    await page.getByRole('button', { name: `Rejeter ${GAETAN}` }).click();
    const reject = page.getByRole('dialog', { name: 'Rejeter le candidat' });
    await expect(reject.getByLabel('Motif du rejet')).toBeFocused();
    await reject.getByRole('button', { name: 'Rejeter', exact: true }).click();
    await expect(reject.getByText('Le motif est requis (au moins 3 caractères).')).toBeVisible();
    await reject.getByLabel('Motif du rejet').fill('Photo floue, visage méconnaissable');
    await auditPage(page, 'issuing-3-reject-dialog', locale, desktop);
    await reject.getByRole('button', { name: 'Rejeter', exact: true }).click();
    await expect(reject).toHaveCount(0);
    await expect(page.getByRole('listitem').filter({ hasText: GAETAN }).getByText('Rejeté', { exact: true })).toBeVisible();

    // The rest of the batch at once, without paging: "validate all pending", counted and confirmed.
    await page.getByTestId('validate-all').click();
    const all = page.getByRole('dialog', { name: 'Valider toutes les photos en attente' });
    await expect(all.getByTestId('validate-all-count')).toHaveText('5 photos en attente seront validées telles quelles.');
    await all.getByRole('button', { name: 'Valider les 5 candidats' }).click();
    await expect(all).toHaveCount(0);
    await expect(page.getByTestId('count-pending')).toHaveText('0 en attente');
    await expect(page.getByTestId('count-validated')).toHaveText('6 validés');
    await expect(page.getByTestId('count-rejected')).toHaveText('1 rejeté');
    await auditBothWidths(page, 'issuing-3-photos-validated', locale);
  });

  await test.step("4. /validate-data: one candidate's name, birth and gender corrected and validated, the rest validated; the rejection listed", async () => {
    await page.goto(`/validate-data/${batchId}`);
    await expect(page.getByTestId('data-table')).toBeVisible();
    await auditBothWidths(page, 'issuing-4-validate-data', locale);

    await page.getByRole('button', { name: `Modifier les données de ${AIME}` }).click();
    const form = page.getByRole('dialog', { name: `Modifier les données de ${AIME}` });
    await expect(form.getByLabel('Date de naissance')).toHaveValue('2006-02-28');
    await form.getByLabel('Nom', { exact: true }).fill('Mukendi-Kalala');
    await form.getByLabel('Postnom').fill('wa Kasongo');
    await form.getByLabel('Prénom').fill('Aimée');
    await form.getByLabel('Lieu de naissance').fill('Likasi');
    await form.getByLabel('Date de naissance').fill('2006-03-01');
    await form.getByRole('radio', { name: 'Féminin' }).check();
    await auditPage(page, 'issuing-4-data-form', locale, desktop);
    await form.getByRole('button', { name: 'Enregistrer et valider' }).click();
    await expect(form).toHaveCount(0);
    const aimee = page.getByRole('row').filter({ hasText: 'Mukendi-Kalala wa Kasongo Aimée' });
    await expect(aimee).toContainText('2006-03-01');
    await expect(aimee).toContainText('Likasi');
    await expect(aimee).toContainText('Féminin');
    await expect(aimee.locator('[data-validation="data-validated"]')).toBeVisible();

    await page.getByRole('button', { name: `Valider ${JEAN}` }).click();
    await expect(page.getByRole('row').filter({ hasText: JEAN }).locator('[data-validation="data-validated"]')).toBeVisible();
    // The rest at once: "validate all pending", with its count and a confirmation (issue 15 item 6).
    await page.getByTestId('validate-all').click();
    const all = page.getByRole('dialog', { name: 'Valider toutes les fiches en attente' });
    await expect(all.getByTestId('validate-all-count')).toHaveText('4 fiches en attente seront validées telles quelles.');
    await auditPage(page, 'issuing-4-validate-all', locale, desktop);
    await all.getByRole('button', { name: 'Valider les 4 candidats' }).click();
    await expect(all).toHaveCount(0);
    const ready = page.getByTestId('validation-ready');
    await expect(ready).toContainText('Toutes les validations sont faites : le lot est prêt pour la génération.');
    // The candidate rejected on the photo page counts as rejected here too, and waits for nobody.
    await expect(page.getByTestId('count-pending')).toHaveText('0 en attente');
    await expect(page.getByTestId('count-validated')).toHaveText('6 validés');
    await expect(page.getByTestId('count-rejected')).toHaveText('1 rejeté');
    await auditBothWidths(page, 'issuing-4-data-validated', locale);

    await page.goto(`/student-reject/${batchId}`);
    const rejected = page.getByTestId('rejected-table').locator('tbody tr');
    await expect(rejected).toHaveCount(1);
    await expect(rejected).toContainText(GAETAN!);
    await expect(rejected).toContainText('Photo floue, visage méconnaissable');
    await expect(rejected).toContainText('Kabila');
    await auditBothWidths(page, 'issuing-4-student-reject', locale);
  });

  await test.step('5. /otp-generation: the code from the outbox, two of the signatures, the launch; /generating-op: ready for signature, signed, completed', async () => {
    await page.goto(`/otp-generation/${batchId}`);
    await expect(page.getByTestId('launch-batch')).toContainText('7 candidats, dont 1 rejetés : 6 diplômes seront générés.');
    const launch = page.getByRole('button', { name: 'Lancer la génération' });
    await expect(launch).toBeDisabled();
    await auditPage(page, 'issuing-5-otp', locale, desktop);
    await page.getByTestId('launch-send').click();
    await expect(page.getByTestId('launch-code-sent')).toContainText('par e-mail');
    const code = await lastCode(page, 'admin@sceau.example');
    await expect(page.getByRole('textbox', { name: 'Code de lancement' })).toBeFocused();
    await page.getByRole('textbox', { name: 'Code de lancement' }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Vérifier le code' }).click();
    await expect(page.locator('#launch-otp-error')).toBeVisible();
    await page.getByRole('textbox', { name: 'Code de lancement' }).fill(code);
    await page.getByRole('button', { name: 'Vérifier le code' }).click();
    await expect(page.getByTestId('launch-verified')).toBeVisible();
    await expect(launch).toBeFocused();

    const signatures = page.getByTestId('launch-signatures').getByRole('checkbox');
    const count = await signatures.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) await expect(signatures.nth(i)).toBeChecked();
    if (count > 1) await signatures.nth(count - 1).uncheck();
    await auditPage(page, 'issuing-5-otp-verified', locale, desktop);
    await launch.click();

    await expect(page).toHaveURL(new RegExp(`/generating-op/${batchId}$`));
    const progress = page.getByTestId('generating-progress');
    await expect(progress).toHaveAttribute('data-status', /in_progress|ready_for_signature/);
    await snap(page, `issuing-5-generating-${locale}-${desktop}`);
    await expect(progress).toHaveAttribute('data-status', 'ready_for_signature', { timeout: 120_000 });
    await expect(page.getByTestId('generating-live')).toHaveText('Diplômes générés : prêts pour la signature.');
    await expect(page.getByTestId('generating-sign')).toContainText('Les 6 diplômes sont générés.');
    await auditPage(page, 'issuing-5-ready-for-signature', locale, desktop);
    await page.getByRole('button', { name: 'Appliquer la signature' }).click();
    await expect(page.getByTestId('generating-done')).toBeVisible({ timeout: 120_000 });
    await expect(progress).toHaveAttribute('data-status', 'completed');
    await expect(progress).toHaveAttribute('data-signature-status', 'finished');
    await expect(page.getByRole('heading', { name: 'Lot publié' })).toBeFocused();
    await expect(page.getByTestId('generating-done')).toContainText('Les 6 diplômes sont signés et vérifiables.');
    await auditPage(page, 'issuing-5-completed', locale, desktop);
  });

  const root = await bearer(page.request, 'root@sceau.example');
  const detail = (await (await page.request.get(`/api/generations/${batchId}?search=${CODES[0]}`, { headers: root })).json()).data;
  const marieDiploma: string = detail.items[0].diploma.id;

  await test.step("6. /show as root: broadcast, the candidate's e-mail and SMS carry her verification link", async () => {
    const rootPage = await staffPage(browser, 'root@sceau.example');
    await rootPage.goto(`/show/${batchId}`);
    const panel = rootPage.getByTestId('batch-broadcast');
    await expect(panel).toContainText("Ce lot n'a pas encore été diffusé aux candidats.");
    await auditPage(rootPage, 'issuing-6-show-published', locale, desktop);
    await panel.getByRole('button', { name: 'Diffuser aux candidats' }).click();
    const confirm = rootPage.getByRole('dialog', { name: 'Diffuser le lot aux candidats' });
    await expect(confirm).toContainText('6 diplômes');
    await confirm.getByRole('button', { name: 'Diffuser', exact: true }).click();
    await expect(rootPage.getByRole('status').filter({ hasText: 'Les notifications de diffusion ont été envoyées avec succès.' })).toBeVisible();
    await expect(rootPage.getByTestId('broadcast-counts')).toContainText('sur 6', { timeout: 30_000 });
    await expect(async () => {
      const mail = (await (await rootPage.request.get('/api/dev/outbox?to=marie-claire.kabongo@example.cd&limit=5')).json()).data as { channel: string; text: string }[];
      expect(mail.some((m) => m.channel === 'email' && m.text.includes(`/verify/${marieDiploma}`))).toBe(true);
      const sms = (await (await rootPage.request.get(`/api/dev/outbox?to=${encodeURIComponent('+243812345678')}&limit=5`)).json()).data as { channel: string; text: string }[];
      expect(sms.some((m) => m.channel === 'sms' && m.text.includes(`/verify/${marieDiploma}`))).toBe(true);
    }).toPass({ timeout: 30_000 });
    await expect(rootPage.getByTestId('broadcast-status')).toContainText('Terminée', { timeout: 30_000 });
    await auditPage(rootPage, 'issuing-6-broadcast-sent', locale, desktop);
    // The batch's history (issue 15 item 6): who did what, in words, by part.
    const history = rootPage.getByTestId('batch-history');
    await expect(history.getByRole('listitem').filter({ hasText: 'Diffusion aux candidats demandée' })).toBeVisible();
    await history.getByLabel('Partie').selectOption('validation');
    await expect(history.getByRole('listitem').filter({ hasText: 'Candidat rejeté pour sa photo' })).toContainText('Motif : Photo floue, visage méconnaissable');
    await expect(history.getByRole('listitem').filter({ hasText: 'Données en attente toutes validées' })).toContainText('4 candidats');
    await auditPage(rootPage, 'issuing-6-history', locale, desktop);
    await rootPage.context().close();
  });

  await test.step('6. /show as the back-office manager: the zip downloaded, one of its PDFs verified authentic by upload, one diploma downloaded and one e-mailed', async () => {
    const office = await staffPage(browser, 'backoffice_manager@sceau.example');
    await office.goto(`/show/${batchId}`);
    await expect(office.getByTestId('batch-count-diplomas')).toHaveText('6');
    await expect(office.getByRole('button', { name: 'Diffuser aux candidats' })).toHaveCount(0);
    const [download] = await Promise.all([office.waitForEvent('download'), office.getByRole('button', { name: 'Télécharger le lot (zip)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const folder = await mkdtemp(path.join(tmpdir(), 'sceau-e2e-zip-'));
    try {
      const file = path.join(folder, download.suggestedFilename());
      await download.saveAs(file);
      const files = await unzip(await readFile(file));
      const pdfs = [...files.entries()].filter(([entry]) => entry.toLowerCase().endsWith('.pdf'));
      expect(pdfs).toHaveLength(6);
      for (const [, pdf] of pdfs) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const [entry, pdf] = pdfs.find(([entry]) => entry.includes(CODES[1]!)) ?? pdfs[0]!;

      await office.goto('/verification');
      await office.getByLabel('Document', { exact: true }).check();
      await office.getByLabel('Document du diplôme').setInputFiles({ name: path.basename(entry), mimeType: 'application/pdf', buffer: pdf });
      await office.getByTestId('verification-submit').click();
      await expect(office.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic', { timeout: 30_000 });
      await expect(office.locator('li[data-check="pdf_signature"]')).toHaveAttribute('data-status', 'passed');
      await auditPage(office, 'issuing-6-zip-pdf-verified', locale, desktop);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }

    // One diploma downloaded on its own: a signed PDF, and counted.
    await office.goto(`/show/${batchId}`);
    const rachel = office.getByRole('row').filter({ hasText: RACHEL! });
    const downloads = async () => Number((await rachel.getByText(/^Téléchargé \d+ fois$/).textContent())!.match(/\d+/)![0]);
    const before = await downloads();
    const [one] = await Promise.all([office.waitForEvent('download'), rachel.getByRole('button', { name: `Télécharger le diplôme de ${RACHEL}` }).click()]);
    expect(one.suggestedFilename()).toMatch(/\.pdf$/);
    expect((await readFile(await one.path())).subarray(0, 5).toString()).toBe('%PDF-');
    await expect(rachel.getByText(/^Téléchargé \d+ fois$/)).toHaveText(`Téléchargé ${before + 1} fois`);

    await rachel.getByRole('button', { name: `Envoyer le diplôme de ${RACHEL} par e-mail` }).click();
    const dialog = office.getByRole('dialog', { name: 'Envoyer le diplôme par e-mail' });
    await dialog.getByLabel('Adresse e-mail du destinataire').fill('admissions@unikin');
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(dialog.locator('#share-email-error')).toBeVisible();
    await dialog.getByLabel('Adresse e-mail du destinataire').fill('admissions@unikin.example.cd');
    await auditPage(office, 'issuing-6-mail-dialog', locale, desktop);
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(office.getByRole('status').filter({ hasText: 'Le diplôme a été envoyé à admissions@unikin.example.cd.' })).toBeVisible();
    await expect(async () => {
      const [mail] = (await (await office.request.get('/api/dev/outbox?to=admissions@unikin.example.cd&limit=1')).json()).data as {
        text: string;
        attachments?: { filename: string; content_type: string }[];
      }[];
      expect(mail?.attachments?.some((a) => a.content_type === 'application/pdf')).toBe(true);
      expect(mail?.text).toContain('/verify/');
    }).toPass({ timeout: 30_000 });
    await office.context().close();
  });

  await test.step('the key screens again, in English (the admin working in English)', async () => {
    const en = await staffPage(browser, 'admin@sceau.example', 'en');
    for (const [step, url] of [
      ['show', `/show/${batchId}`],
      ['validate-picture', `/validate-picture/${batchId}`],
      ['validate-data', `/validate-data/${batchId}`],
      ['student-reject', `/student-reject/${batchId}`],
      ['generating', `/generating-op/${batchId}`],
    ] as const) {
      await en.goto(url);
      await expect(en.locator('main').first()).toBeVisible();
      await auditPage(en, `issuing-en-${step}`, 'en', desktop);
    }
    await en.setViewportSize(VIEWPORTS.phone);
    for (const step of ['validate-picture', 'validate-data'] as const) {
      await en.goto(`/${step}/${batchId}`);
      await expect(en.getByTestId('validation-header')).toBeVisible();
      await auditPage(en, `issuing-en-${step}`, 'en', 'phone');
    }
    await en.setViewportSize(VIEWPORTS.desktop);

    // A list's problems, read in English (its codes are now in a batch of the session, too).
    await en.goto(`/check-file/${templateId}`);
    await en.getByLabel('Educational province').selectOption({ label: PROVINCE });
    await en.getByLabel('List of candidates (CSV, XLSX or ODS)').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: csv(LIST_WITH_ERRORS) });
    await en.getByRole('button', { name: 'Check the file' }).click();
    await expect(en.getByTestId('check-errors')).toContainText('Invalid e-mail address');
    await auditPage(en, 'issuing-en-check-errors', 'en', desktop);
    await en.context().close();
  });
});

// ------------------------------------------------------------------------------------- keyboard only

test("keyboard only: correcting and validating a candidate's data on /validate-data", async ({ page }) => {
  test.setTimeout(120_000);
  const headers = await bearer(page.request, 'admin@sceau.example');
  const get = async (url: string) => (await (await page.request.get(url, { headers })).json()).data;
  const session = (await get('/api/sessions')).find((s: { year: number }) => s.year === 2026);
  const province = (await get('/api/educ-provinces')).find((p: { name: string }) => p.name === PROVINCE);
  const template = await get('/api/templates/drc');
  const rows = [
    row({
      code_candidat: '20269200000001',
      nom: 'Kalonji',
      postnom: 'Mwamba',
      prenom: 'Josué',
      date_naissance: '09/09/2007',
      lieu_naissance: 'Kinshasa',
      sexe: 'M',
      option: 'LIT',
      pourcentage: '64',
    }),
    row({ code_candidat: '20269200000002', nom: 'Mbombo', prenom: 'Chantal', date_naissance: '2007-04-18', lieu_naissance: 'Boma', sexe: 'F', option: 'ELE', pourcentage: '70,5' }),
  ];
  const check = await page.request.post('/api/check-import-file', {
    headers,
    multipart: {
      template_id: String(template.id),
      session_id: String(session.id),
      province_id: String(province.id),
      file: { name: 'clavier.csv', mimeType: 'text/csv', buffer: csv(rows) },
    },
  });
  expect(check.ok(), await check.text()).toBe(true);
  const checked = (await check.json()).data;
  expect(checked.error_count).toBe(0);
  const started = await page.request.post('/api/start-import-process', { headers, data: { generation_id: checked.generation_id, title: 'Lot clavier' } });
  expect(started.ok(), await started.text()).toBe(true);
  const importation = (await started.json()).data.importation_id;
  await expect.poll(async () => (await get(`/api/importations/${importation}/tracking`)).status, { timeout: 60_000 }).toBe('completed');
  const batchId = checked.generation_id as number;

  await useLocale(page, 'fr');
  await signIn(page, 'admin@sceau.example');
  await page.goto(`/validate-data/${batchId}`);
  await expect(page.getByTestId('data-table')).toBeVisible();
  await page.waitForLoadState('networkidle');

  // From the top of the page: Tab to the candidate's edit button, Enter opens the form.
  await tabTo(page, (f) => f.name === 'Modifier les données de Kalonji Mwamba Josué', 'the edit button of Kalonji', 120);
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Modifier les données de Kalonji Mwamba Josué' });
  await expect(form).toBeVisible();
  await tabTo(page, (f) => f.id === 'data-first_name', 'the first name field');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Josué-Daniel');
  await tabTo(page, (f) => f.id === 'data-birth_place', 'the birth place field');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Kikwit');
  await tabTo(page, (f) => f.id === 'data-birth_date', 'the birth date field');
  // Typed in the order the browser shows (day/month/year or month/day/year: the day is the month here).
  await page.keyboard.type('10102006');
  await expect(page.locator('#data-birth_date')).toHaveValue('2006-10-10');
  await tabTo(page, (f) => f.type === 'radio', 'the gender choice');
  await expect(form.getByRole('radio', { name: 'Masculin' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(form.getByRole('radio', { name: 'Féminin' })).toBeChecked();
  await page.keyboard.press('ArrowUp');
  await expect(form.getByRole('radio', { name: 'Masculin' })).toBeChecked();
  await snap(page, 'issuing-keyboard-data-form-fr-desktop');
  await tabTo(page, (f) => f.tag === 'button' && f.name === 'Enregistrer et valider', 'the save button');
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  const kalonji = page.getByRole('row').filter({ hasText: 'Kalonji Mwamba Josué-Daniel' });
  await expect(kalonji).toContainText('Kikwit');
  await expect(kalonji).toContainText('2006-10-10');
  await expect(kalonji.locator('[data-validation="data-validated"]')).toBeVisible();
  // Focus came back to the page: on to the other candidate's validation, with Space.
  await tabTo(page, (f) => f.name === 'Valider Mbombo Chantal', 'the validate button of Mbombo', 120);
  await page.keyboard.press('Space');
  await expect(page.getByRole('row').filter({ hasText: 'Mbombo Chantal' }).locator('[data-validation="data-validated"]')).toBeVisible();
  await expect(page.getByTestId('count-validated')).toHaveText('2 validés');
  await snap(page, 'issuing-keyboard-data-validated-fr-desktop');
});
