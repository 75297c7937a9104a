/**
 * Installable and offline (issue 14 item 4, ADR 0127): the manifest is linked and served, the
 * service worker registers and takes control; offline, /verification reopens from its caches, a
 * check says "Erreur de connexion" at once, a signed QR code is checked with the published keys the
 * service worker kept (saying what needs the network), and back online the retry verifies.
 */
import { expect, test } from '@playwright/test';
import { baseURL } from './playwright.config.ts';
import { queryDatabase } from './support.ts';

type Published = { id: string; qr_payload: string };

async function publishedDiploma(): Promise<Published> {
  const [diploma] = await queryDatabase<Published>(`
    select d.id, d.qr_payload from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
    where d.revoked_at is null and d.qr_payload is not null order by d.item_id limit 1`);
  if (!diploma) throw new Error('no published demo diploma');
  return diploma;
}

test('installable: the manifest is linked and served, the service worker registers', async ({ page, request }) => {
  await page.goto('/verification');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');

  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const body = (await manifest.json()) as { display: string; lang: string; start_url: string; icons: { sizes: string; purpose?: string }[] };
  expect(body).toMatchObject({ display: 'standalone', lang: 'fr', start_url: '/verification' });
  expect(body.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-512.png']) expect((await request.get(icon)).ok()).toBe(true);

  const worker = await request.get('/sw.js');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(`${baseURL}/`);
});

test('offline: /verification reopens, a check fails at once, a signed QR is checked with the kept keys', async ({ page, context }) => {
  const diploma = await publishedDiploma();
  await page.goto('/verification');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // The keys the page kept itself are dropped: the offline check must find the service worker's copy.
  await page.evaluate(() => localStorage.removeItem('sceau.jwks'));

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#verify-link')).toBeVisible();
  await expect(page.getByTestId('network-offline')).toBeVisible();

  await page.locator('#verify-link').fill(`${baseURL}/verify/${diploma.id}`);
  const clicked = Date.now();
  await page.getByTestId('verification-submit').click();
  await expect(page.getByTestId('verification-error')).toContainText('Erreur de connexion', { timeout: 3_000 });
  expect(Date.now() - clicked).toBeLessThan(3_000);
  await expect(page.getByTestId('verification-retry')).toBeVisible();

  // The signed QR code: signature and issuer checked here; chain and revocation need the network.
  await page.locator('#verify-link').fill(diploma.qr_payload);
  await page.getByTestId('verification-offline').click();
  await expect(page.getByTestId('offline-banner')).toHaveAttribute('data-status', 'valid');
  await expect(page.locator('li[data-offline-check="published_key"]')).toHaveAttribute('data-status', 'passed');
  await expect(page.locator('li[data-offline-check="qr_signature"]')).toHaveAttribute('data-status', 'passed');
  await expect(page.locator('li[data-offline-check="not_revoked"]')).toHaveAttribute('data-status', 'online');
  await expect(page.locator('li[data-offline-check="anchored"]')).toHaveAttribute('data-status', 'online');

  // /verify/{id} is never kept (the server may render a holder's name into it): offline, the shell
  // opens it and it says so at once.
  await page.goto(`/verify/${diploma.id}`);
  await expect(page.getByTestId('verification-error')).toContainText('Erreur de connexion', { timeout: 3_000 });
  await page.goto('/verification');
  await expect(page.locator('#verify-link')).toBeVisible();

  // Back online: the same check by link goes through.
  await context.setOffline(false);
  await expect(page.getByTestId('network-offline')).toBeHidden();
  await page.locator('#verify-link').fill(`${baseURL}/verify/${diploma.id}`);
  await page.getByTestId('verification-submit').click();
  await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', /authentic|incomplete/);
});
