import { expect, test, type APIRequestContext } from '@playwright/test';
import { snap } from './support.ts';

/** A demo diploma (issued and anchored at first start): its id and its signed PDF, fetched as staff would. */
async function demoDiploma(request: APIRequestContext): Promise<{ id: string; pdf: Buffer }> {
  const token = (
    await (
      await request.post('/api/oauth/token', {
        data: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'root@sceau.example', password: 'Sceau-Demo-2026' },
      })
    ).json()
  ).access_token as string;
  const headers = { authorization: `Bearer ${token}` };
  const [batch] = (await (await request.get('/api/generations/by-user', { headers })).json()).data;
  const detail = (await (await request.get(`/api/generations/${batch.id}?search=Ngalula`, { headers })).json()).data;
  const item = detail.items[0];
  const pdf = await (await request.get(`/api/items/${item.id}`, { headers })).body();
  return { id: item.diploma.id, pdf };
}

test.describe('verifying a diploma', () => {
  test('from its link: authentic, each check named, the holder shown', async ({ page }) => {
    const { id } = await demoDiploma(page.request);
    await page.goto(`/verify/${id}`);
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    const checks = page.getByTestId('verification-checks').locator('li[data-check]');
    await expect(checks).toHaveCount(5);
    await expect(page.getByTestId('verification-checks').locator('li[data-status="passed"]')).toHaveCount(5);
    await expect(page.getByTestId('verification-diploma')).toContainText('Ngalula');
    await snap(page, 'verify-authentic-fr-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'verify-authentic-fr-phone');
  });

  test('by pasting its link, and by uploading its PDF; a changed byte is caught', async ({ page }) => {
    const { id, pdf } = await demoDiploma(page.request);
    await page.goto('/verification');
    await page.locator('#verify-link').fill(`http://127.0.0.1/verify/${id}`);
    await page.getByTestId('verification-submit').click();
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    await snap(page, 'verification-by-link-fr-desktop');

    await page.locator('#verify-mode-document').check();
    await page.locator('#verify-document').setInputFiles({ name: 'diplome.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByTestId('verification-submit').click();
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    await expect(page.locator('li[data-check="pdf_signature"]')).toHaveAttribute('data-status', 'passed');

    // One byte changed inside the signed content (the text itself is drawn with font subsets, not plain letters).
    const tampered = Buffer.from(pdf);
    tampered[2000] = tampered[2000]! ^ 0x01;
    await page.locator('#verify-document').setInputFiles({ name: 'diplome.pdf', mimeType: 'application/pdf', buffer: tampered });
    await page.getByTestId('verification-submit').click();
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'altered');
    await expect(page.locator('li[data-check="pdf_signature"]')).toHaveAttribute('data-status', 'failed');
    await snap(page, 'verification-altered-fr-desktop');
  });

  test('an unknown diploma, and a link that is not one, in English', async ({ page }) => {
    await page.goto('/verify/AAAAAAAAAAAAAAAAAAAAAA');
    await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'unknown');
    await page.goto('/verification');
    await page
      .getByRole('combobox', { name: /^(Langue|Language)$/ })
      .first()
      .selectOption('en');
    await page.locator('#verify-link').fill('not a link');
    await page.getByTestId('verification-submit').click();
    await expect(page.locator('#verify-link-error')).toContainText('Invalid link');
  });
});
