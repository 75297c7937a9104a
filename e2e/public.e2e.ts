/**
 * What the public does besides verifying by link: a diploma verified from its QR code (the text
 * pasted, and a photo of the printed page), a revoked diploma, the candidate check with the right
 * classmates and with wrong ones, and the contact form whose message reaches the outbox. Each state
 * goes through the page audit (accessibility, language) in French and English.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { auditPage, useLocale } from './page-audit.ts';
import { DEMO_PASSWORD, queryDatabase } from './support.ts';

async function staffHeaders(request: APIRequestContext, username = 'root@sceau.example') {
  const login = await request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username, password: DEMO_PASSWORD },
  });
  return { authorization: `Bearer ${(await login.json()).access_token}` };
}

type Published = { id: string; item_id: string; qr_payload: string; candidate_code: string };

/** A published, unrevoked demo diploma (the one the other journeys use comes first: we take another). */
async function publishedDiplomas(): Promise<Published[]> {
  return queryDatabase<Published>(`
    select d.id, d.item_id::text, d.qr_payload, d.candidate_code from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
    where d.revoked_at is null order by d.item_id`);
}

test.describe('a diploma from its QR code', () => {
  test('the offline QR text pasted in the link field verifies', async ({ page }) => {
    const [diploma] = await publishedDiplomas();
    await page.goto('/verification');
    await page.locator('#verify-link').fill(diploma!.qr_payload);
    await page.getByTestId('verification-submit').click();
    // The QR carries the signed fields: the server completes the checks from the record it points to.
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', /authentic|incomplete/);
    await expect(page.locator('li[data-check="issuer_signature"]')).toHaveAttribute('data-status', 'passed');
    await auditPage(page, 'public-qr-text', 'fr', 'desktop');
  });

  test('a photo of the printed diploma is read in the browser and verifies', async ({ page }) => {
    test.setTimeout(120_000);
    const [diploma] = await publishedDiplomas();
    const pdf = await (await page.request.get(`/api/items/${diploma!.item_id}`, { headers: await staffHeaders(page.request) })).body();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sceau-qr-'));
    try {
      writeFileSync(path.join(dir, 'diploma.pdf'), pdf);
      // The page as a phone would photograph it: the first page rendered to an image (poppler-utils).
      execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', path.join(dir, 'diploma.pdf'), path.join(dir, 'photo')]);
      await page.goto('/verification');
      await page.locator('#verify-mode-document').check();
      await page.locator('#verify-document').setInputFiles({ name: 'photo-diplome.png', mimeType: 'image/png', buffer: readFileSync(path.join(dir, 'photo.png')) });
      await page.getByTestId('verification-submit').click();
      await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', /authentic|incomplete/, { timeout: 30_000 });
      await auditPage(page, 'public-qr-photo', 'fr', 'desktop');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('a revoked diploma says so, in both languages', async ({ page }) => {
  const diplomas = await publishedDiplomas();
  const revoked = diplomas[diplomas.length - 1]!; // not the first: other journeys verify that one
  const res = await page.request.post(`/api/diplomas/${revoked.id}/revoke`, {
    headers: await staffHeaders(page.request),
    data: { reason: 'Erreur matérielle constatée par le jury' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect(async () => {
    await page.goto(`/verify/${revoked.id}`);
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'revoked', { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await auditPage(page, 'public-verify-revoked', 'fr', 'phone');
  await useLocale(page, 'en');
  await page.reload();
  await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'revoked');
  await auditPage(page, 'public-verify-revoked', 'en', 'phone');
});

type Candidate = { session_id: number; candidate_code: string; last_name: string; middle_name: string; first_name: string; birth_date: string; institution_code: string };

test.describe('the candidate check', () => {
  /** A candidate of the results registry who holds a published diploma, and two real classmates. */
  async function candidate() {
    const [person] = await queryDatabase<Candidate>(`
      select r.session_id, r.candidate_code, r.last_name, r.middle_name, r.first_name, r.birth_date, r.institution_code
      from national_results r
      join diplomas d on d.candidate_code = r.candidate_code and d.revoked_at is null
      join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
      where r.middle_name is not null and r.first_name is not null order by r.candidate_code limit 1`);
    const classmates = await queryDatabase<{ name: string }>(
      `select concat_ws(' ', last_name, middle_name, first_name) as name from national_results
       where session_id = $1 and institution_code = $2 and candidate_code <> $3 order by candidate_code limit 2`,
      [person!.session_id, person!.institution_code, person!.candidate_code],
    );
    const stranger = await queryDatabase<{ name: string }>(
      `select concat_ws(' ', last_name, middle_name, first_name) as name from national_results
       where session_id = $1 and institution_code <> $2 order by candidate_code limit 1`,
      [person!.session_id, person!.institution_code],
    );
    return { person: person!, classmates: classmates.map((c) => c.name), stranger: stranger[0]!.name };
  }

  async function fill(page: import('@playwright/test').Page, person: Candidate, classmates: string[]) {
    await page.locator('#candidate-last-name').fill(person.last_name);
    await page.locator('#candidate-middle-name').fill(person.middle_name);
    await page.locator('#candidate-first-name').fill(person.first_name);
    await page.locator('#candidate-code').fill(person.candidate_code);
    await page.locator('#candidate-birth-date').fill(person.birth_date);
    await page.locator('#candidate-phone').fill('812345678');
    await page.locator('#candidate-session').selectOption(String(person.session_id));
    await page.locator('#candidate-classmate-1').fill(classmates[0]!);
    await page.locator('#candidate-classmate-2').fill(classmates[1]!);
    await page.getByTestId('candidate-submit').click();
  }

  test('fails with a classmate of another school, then leads to the diploma with the right ones', async ({ page }) => {
    const { person, classmates, stranger } = await candidate();
    await page.goto('/mon-exetat');
    await page.getByTestId('candidate-submit').click();
    await expect(page.locator('#candidate-last-name')).toHaveAttribute('aria-invalid', 'true');
    await auditPage(page, 'public-candidate-check-errors', 'fr', 'phone');

    await fill(page, person, [classmates[0]!, stranger]);
    await expect(page.getByTestId('candidate-not-recognised')).toBeVisible();
    await auditPage(page, 'public-candidate-check-not-recognised', 'fr', 'phone');

    // Case, accents and spaces do not matter to the match.
    await fill(page, person, [classmates[0]!.toLowerCase(), `  ${classmates[1]!.toUpperCase()}  `]);
    await expect(page.getByTestId('candidate-result')).toHaveAttribute('data-diploma-status', 'available');
    await auditPage(page, 'public-candidate-check-recognised', 'fr', 'phone');
    await page.getByTestId('candidate-diploma-link').click();
    await expect(page).toHaveURL(/\/view-certificate\?id=/);
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    await auditPage(page, 'public-view-certificate', 'fr', 'phone');
  });

  test('reads English, and says so when nothing matches', async ({ page }) => {
    const { person, stranger } = await candidate();
    await useLocale(page, 'en');
    await page.goto('/student-check');
    await fill(page, person, [stranger, stranger]);
    await expect(page.locator('#candidate-classmate-2')).toHaveAttribute('aria-invalid', 'true');
    await auditPage(page, 'public-candidate-check-errors', 'en', 'desktop');
  });
});

test('the contact form: checked, sent, and the message reaches the provider', async ({ page }) => {
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.locator('#contact-name')).toHaveAttribute('aria-invalid', 'true');
  await page.locator('#contact-name').fill("Béatrice N'Sele-Mbuyi");
  await page.locator('#contact-email').fill('beatrice.nsele@example.cd');
  await page.locator('#contact-subject').fill('Diplôme introuvable');
  const text = `Bonjour, le diplôme de ma fille n'apparaît pas encore. Réf. ${Date.now()}`;
  await page.locator('#contact-message').fill(text);
  await page.getByRole('button', { name: 'Envoyer le message' }).click();
  await expect(page.getByTestId('contact-success')).toContainText('Formulaire envoyé avec succès !');
  await auditPage(page, 'public-contact-sent', 'fr', 'phone');
  await expect(async () => {
    const res = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent('contact@sceau.example')}&limit=5`);
    const messages = (await res.json()).data as { text: string }[];
    expect(messages.some((m) => m.text.includes(text))).toBe(true);
  }).toPass({ timeout: 15_000 });
});
