/**
 * /verify/{id} readable without JavaScript (ADR 0128): the server writes the verdict, the holder and
 * the diploma into the HTML, in the browser's language; with JavaScript the SPA takes the page over
 * without a jump; an unknown id says so, with a 404.
 */
import { expect, test } from '@playwright/test';
import { queryDatabase } from './support.ts';

type Published = { id: string; last_name: string };

/** A published, unrevoked demo diploma and its holder's last name. */
async function publishedDiploma(): Promise<Published> {
  const [row] = await queryDatabase<Published>(`
    select d.id, i.last_name from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed' and g.revoked_at is null
    join generation_items i on i.id = d.item_id
    where d.revoked_at is null order by d.item_id limit 1`);
  if (!row) throw new Error('no published demo diploma');
  return row;
}

test.describe('/verify/{id} written by the server', () => {
  test('shows the verdict, the holder and the diploma, then how it was checked', async ({ browser }) => {
    const diploma = await publishedDiploma();
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const response = await page.goto(`/verify/${diploma.id}`);
      expect(response?.status()).toBe(200);
      const banner = page.getByTestId('verdict-banner');
      await expect(banner).toHaveAttribute('data-verdict', 'authentic');
      await expect(banner).toContainText('Authentique');
      await expect(banner).toContainText('Vérifié le');
      const holder = page.getByTestId('verification-diploma');
      await expect(holder).toContainText(diploma.last_name);
      await expect(holder).toContainText("Diplôme d'État");
      await expect(holder.getByTestId('diploma-photo')).toHaveAttribute('height', '160');
      // The holder comes within the first screen of a phone, before the checks.
      const top = await holder.boundingBox();
      expect(top?.y).toBeLessThan(844);
      await expect(page.getByTestId('verification-checks').locator('li[data-check]')).toHaveCount(5);
      await expect(page.locator('details.ssr-details')).not.toHaveAttribute('open', /.*/);
    } finally {
      await context.close();
    }
  });

  test('with JavaScript, the SPA takes the page over without a jump (CLS under 0.05)', async ({ page }) => {
    const diploma = await publishedDiploma();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) w.shifts += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`/verify/${diploma.id}`);
    // The SPA's own result (its classes), from the answer embedded in the page: no second request.
    await expect(page.locator('.verdict-banner[data-verdict="authentic"]')).toBeVisible();
    await expect(page.getByTestId('holder-name')).toContainText(diploma.last_name);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.05);
  });

  test('an unknown diploma in English, with a 404', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'en-GB' });
    try {
      const page = await context.newPage();
      const response = await page.goto('/verify/AAAAAAAAAAAAAAAAAAAAAA');
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'unknown');
      await expect(page.getByTestId('verdict-banner')).toContainText('Unknown diploma');
    } finally {
      await context.close();
    }
  });
});
