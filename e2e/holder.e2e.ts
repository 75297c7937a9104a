import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { auditPage, VIEWPORTS } from './page-audit.ts';
import { lastCode, queryDatabase } from './support.ts';

type Published = { id: string; item_id: string };

/**
 * The holder's side (ADR 0132): a candidate whose school gave the ministry their e-mail registers
 * with it, finds their diploma, downloads it, shares it by a link that a stranger opens, then
 * revokes the link, which the stranger's next visit is refused.
 */
test('a candidate registers with the e-mail the ministry has, downloads their diploma, shares it and revokes the link', async ({ page, browser }) => {
  // Registration, five pages, two browsers and four audits: longer than one page's journey.
  test.setTimeout(240_000);
  // A published demo diploma (from the end of the list: the other journeys take the first ones),
  // whose candidate the list gave this e-mail, as an import does.
  const [diploma] = await queryDatabase<Published>(`
    select d.id, d.item_id::text from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
    where d.revoked_at is null and d.pdf_key is not null order by d.item_id desc limit 1`);
  const email = 'titulaire.holder@example.cd';
  await queryDatabase('update generation_items set email = $1 where id = $2', [email, diploma!.item_id]);

  await page.goto('/register');
  await page.getByLabel('E-mail', { exact: true }).check();
  await page.locator('#register-name').fill('Mbuyi');
  await page.locator('#register-first-name').fill('Grâce');
  await page.locator('#register-email').fill(email);
  await page.locator('#register-password').fill('Titulaire-2026');
  await page.locator('#register-password-confirmation').fill('Titulaire-2026');
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page).toHaveURL(/\/otp-validation/);
  await page.locator('#otp-code').fill(await lastCode(page, email));
  await page.getByRole('button', { name: 'Valider le code' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // My diplomas: the one whose candidate has my e-mail, and only it.
  await page.getByRole('link', { name: /Mes diplômes et résultats/ }).click();
  await expect(page).toHaveURL(/\/my-diplomas$/);
  const card = page.getByTestId('holder-diploma');
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-diploma', diploma!.id);
  await expect(card.getByTestId('holder-result')).toContainText('%');
  await page.setViewportSize(VIEWPORTS.phone);
  await auditPage(page, 'holder-diplomas', 'fr', 'phone');
  await page.setViewportSize(VIEWPORTS.desktop);

  // The signed PDF, downloaded from the page.
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('holder-download').click()]);
  expect(download.suggestedFilename()).toBe(`diplome-${diploma!.id}.pdf`);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A link for 7 days, with a note.
  await card.getByRole('link', { name: 'Partager' }).click();
  await expect(page).toHaveURL(/\/my-diplomas\/shares\?diploma=/);
  await page.getByRole('radio', { name: '7 jours' }).check();
  await page.locator('#share-label').fill('Employeur');
  await page.getByRole('button', { name: 'Créer le lien' }).click();
  const url = await page.locator('#share-url').inputValue();
  expect(url).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('share-link')).toHaveAttribute('data-state', 'active');
  await page.setViewportSize(VIEWPORTS.phone);
  await auditPage(page, 'holder-shares', 'fr', 'phone');
  await page.setViewportSize(VIEWPORTS.desktop);

  // Someone else, with no account, opens it: the diploma verified now, without its permanent id.
  const stranger = await browser.newContext({ locale: 'fr-FR' });
  const visit = await stranger.newPage();
  await visit.goto(url);
  await expect(visit.getByTestId('shared-verdict')).toHaveAttribute('data-verdict', /authentic|incomplete/);
  await expect(visit.getByTestId('shared-holder')).not.toBeEmpty();
  await expect(visit.getByTestId('shared-expiry')).toContainText('Ce lien de partage expire le');
  expect(await visit.content()).not.toContain(diploma!.id);
  await visit.setViewportSize(VIEWPORTS.phone);
  await auditPage(visit, 'holder-shared', 'fr', 'phone');

  // The holder revokes it; the stranger's next visit is refused, saying why.
  await page.getByRole('button', { name: 'Révoquer le lien Employeur' }).click();
  await expect(page.getByTestId('share-link')).toHaveAttribute('data-state', 'revoked');
  await visit.reload();
  await expect(visit.getByTestId('shared-refused')).toContainText('Ce lien de partage a été révoqué par le titulaire du diplôme');
  await expect(visit.getByTestId('shared-verdict')).toHaveCount(0);
  await auditPage(visit, 'holder-shared-revoked', 'fr', 'phone');
  await stranger.close();
});
