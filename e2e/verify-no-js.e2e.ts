/**
 * /verify/{id} read without JavaScript (ADR 0128): the server writes the verdict, the holder and
 * the diploma into the HTML, in the browser's language; an unknown id says so, with a 404.
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

test.describe('the verdict without JavaScript', () => {
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
