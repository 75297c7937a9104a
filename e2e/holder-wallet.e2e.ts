import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { auditPage, VIEWPORTS } from './page-audit.ts';
import { queryDatabase, registeredAccount, signIn } from './support.ts';

type Published = { id: string; item_id: string };

/**
 * The holder's portable diploma (issue 17, ADRs 0144-0146 and 0152): a registered candidate
 * downloads their diploma as a W3C VC and as an SD-JWT VC, opens the wallet offer, shares a link
 * that keeps their birth place and percentage back, which a stranger opens without them, and the
 * downloaded VC and SD-JWT verify as authentic on /verification.
 */
test('a candidate downloads the VC and the SD-JWT, offers it to a wallet, shares only what they choose, and both files verify', async ({ page, browser }) => {
  test.setTimeout(240_000);
  // A published demo diploma other than holder.e2e.ts's (the last one), whose candidate has this e-mail.
  const [diploma] = await queryDatabase<Published>(`
    select d.id, d.item_id::text from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
    where d.revoked_at is null and d.pdf_key is not null order by d.item_id desc offset 1 limit 1`);
  const email = 'titulaire.wallet@example.cd';
  const password = 'Titulaire-2026';
  await queryDatabase('update generation_items set email = $1 where id = $2', [email, diploma!.item_id]);
  await registeredAccount(page, email, password);
  await signIn(page, email, { password });

  await page.goto('/my-diplomas');
  const card = page.getByTestId('holder-diploma');
  await expect(card).toHaveCount(1);
  await expect(card).toHaveAttribute('data-diploma', diploma!.id);

  // The Open Badges 3.0 VC and the SD-JWT VC, saved as files.
  const [vcDownload] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: /Open Badges 3\.0/ }).click()]);
  const vc = await readFile((await vcDownload.path())!);
  expect(JSON.parse(vc.toString('utf8')).type).toContain('OpenBadgeCredential');
  const [sdJwtDownload] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: /SD-JWT VC/ }).click()]);
  const sdJwt = await readFile((await sdJwtDownload.path())!);
  expect(sdJwt.toString('utf8')).toMatch(/^ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~/);

  // Add to a wallet: a QR code and the link for this phone.
  await card.getByRole('button', { name: 'Ajouter à un portefeuille' }).click();
  const offer = page.getByTestId('wallet-offer');
  await expect(offer.getByTestId('wallet-offer-qr')).toBeVisible();
  await expect(offer.getByTestId('wallet-offer-link')).toHaveAttribute('href', /^openid-credential-offer:\/\/\?credential_offer=/);
  await page.keyboard.press('Escape');
  await expect(offer).toHaveCount(0);

  // A link that keeps the birth place and the percentage back.
  await card.getByRole('link', { name: 'Partager' }).click();
  await expect(page).toHaveURL(/\/my-diplomas\/shares\?diploma=/);
  const choices = page.getByRole('group', { name: 'Ce que le lien montre' });
  await expect(choices.getByRole('checkbox', { name: 'Lieu de naissance' })).not.toBeChecked();
  await choices.getByRole('checkbox', { name: 'Pourcentage obtenu' }).uncheck();
  await page.getByRole('button', { name: 'Créer le lien' }).click();
  const url = await page.locator('#share-url').inputValue();
  await expect(page.getByTestId('share-shows').first()).toHaveText("Montre : Date de naissance, École et centre d'examen, Photo");
  await page.setViewportSize(VIEWPORTS.phone);
  await auditPage(page, 'holder-shares-choice', 'fr', 'phone');
  await page.setViewportSize(VIEWPORTS.desktop);

  // A stranger opens it: the birth place and the percentage are said to be kept back, and are not in the page.
  const stranger = await browser.newContext({ locale: 'fr-FR' });
  const visit = await stranger.newPage();
  const answer = visit.waitForResponse((response) => /\/api\/shared\/[A-Za-z0-9_-]{43}$/.test(new URL(response.url()).pathname));
  await visit.goto(url);
  const shared = (await (await answer).json()) as { data: { diploma: Record<string, unknown>; withheld: string[] } };
  expect(shared.data.withheld).toEqual(['birth_place', 'percentage']);
  expect(shared.data.diploma).not.toHaveProperty('percentage');
  expect(shared.data.diploma).not.toHaveProperty('birth_place');
  await expect(visit.getByTestId('shared-verdict')).toHaveAttribute('data-verdict', /authentic|incomplete/);
  const kept = visit.locator('[data-withheld]');
  await expect(kept).toHaveCount(2);
  await expect(kept.locator('dt')).toHaveText(['Lieu de naissance', 'Résultat']);
  await expect(kept.locator('dd')).toHaveText(['non divulgué par le titulaire', 'non divulgué par le titulaire']);
  await expect(visit.getByRole('img', { name: /^Photo de/ })).toBeVisible();
  await expect(visit.getByRole('link', { name: 'Télécharger le justificatif SD-JWT' })).toBeVisible();
  await visit.setViewportSize(VIEWPORTS.phone);
  await auditPage(visit, 'holder-shared-choice', 'fr', 'phone');
  await stranger.close();

  // The downloaded VC and SD-JWT, uploaded on /verification: authentic.
  for (const file of [
    { name: 'diplome.vc.json', mimeType: 'application/json', buffer: vc },
    { name: 'diplome.sd-jwt', mimeType: 'application/octet-stream', buffer: sdJwt },
  ]) {
    await page.goto('/verification');
    await page.locator('#verify-mode-document').check();
    await page.locator('#verify-document').setInputFiles(file);
    await page.getByTestId('verification-submit').click();
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    await expect(page.getByTestId('verdict-banner')).toContainText('Authentique');
  }
});
