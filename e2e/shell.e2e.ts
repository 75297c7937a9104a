import { expect, test } from '@playwright/test';
import { chooseLanguage, queryDatabase, signIn, snap } from './support.ts';

test.describe('a visitor', () => {
  test('reads the home page in French, switches to English, and English stays after a reload', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('diplômes nationaux authentifiés');
    await expect(page.getByRole('link', { name: 'Vérifier un diplôme' }).first()).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
    test.setTimeout(150_000);
    // The counters are the database's (the server keeps them a minute: the page is reloaded until then).
    const published = async () =>
      (
        await queryDatabase<Record<'documents' | 'students' | 'schools' | 'downloads', string>>(`
          select count(*) filter (where live) as documents, count(distinct candidate_code) filter (where live) as students,
                 count(distinct institution_id) filter (where live) as schools, coalesce(sum(downloads), 0) as downloads
          from (select d.candidate_code, i.institution_id, d.downloads, (d.revoked_at is null and g.revoked_at is null) as live
                from diplomas d join generations g on g.id = d.generation_id and g.status = 'completed'
                join generation_items i on i.id = d.item_id) published`)
      )[0]!;
    expect(Number((await published()).documents)).toBeGreaterThan(0); // the demo batch at least, published at first start
    await expect(async () => {
      await page.reload();
      const db = await published();
      for (const key of ['documents', 'students', 'schools', 'downloads'] as const) {
        await expect(page.getByTestId(`counter-${key}`).locator('dd')).toHaveText(new Intl.NumberFormat('fr').format(Number(db[key])), { timeout: 3_000 });
      }
    }).toPass({ timeout: 90_000, intervals: [2_000, 5_000, 10_000] });
    await snap(page, 'home-fr-desktop');

    await chooseLanguage(page, 'en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('link', { name: 'Verify a diploma' }).first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('link', { name: 'Verify a diploma' }).first()).toBeVisible();
    await snap(page, 'home-en-desktop');
  });

  test('ignores an unsupported language stored by hand', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('lang', 'de'));
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test('sees the 404 page on an unknown path, with a way home', async ({ page }) => {
    const response = await page.goto('/cette-page-n-existe-pas');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Page introuvable').first()).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
    await snap(page, 'not-found-fr-desktop');
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('is sent to sign in from a staff page, and comes back to it after signing in', async ({ page }) => {
    await page.goto('/validated');
    await expect(page).toHaveURL(/\/login/);
    await snap(page, 'login-fr-desktop');
    await signIn(page, 'validateur@sceau.example');
    await expect(page).toHaveURL(/\/validated$/);
  });

  test('gets "Invalid contact or password" for a wrong password, in the chosen language', async ({ page }) => {
    await page.goto('/login');
    await chooseLanguage(page, 'en');
    await page.getByLabel('E-mail or phone').fill('admin@sceau.example');
    await page.getByLabel(/^Password$/).fill('not-the-password');
    await page.getByRole('button', { name: /^Sign in$/ }).click();
    await expect(page.getByRole('alert').first()).toHaveText('Invalid contact or password');
    await expect(page).toHaveURL(/\/login/);
  });
});

test.describe('a signed-in member of staff', () => {
  test('is refused a page beyond their role with the guard message, and sent to the dashboard', async ({ page }) => {
    await signIn(page, 'controleur@sceau.example');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Bienvenue');
    await snap(page, 'dashboard-controleur-fr-desktop');

    await page.goto('/settings');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Rôle insuffisant' })).toBeVisible();

    await page.goto('/validate-picture/1');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Accès non autorisé' })).toBeVisible();
    await snap(page, 'guard-refusal-fr-desktop');
  });

  test('keeps the session across a reload only with remember-me in another tab, and logs out to home', async ({ page, context }) => {
    await signIn(page, 'admin@sceau.example', { remember: true });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    const other = await context.newPage();
    await other.goto('/dashboard');
    await expect(other).toHaveURL(/\/dashboard$/);
    await other.close();

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => [localStorage.getItem('token'), sessionStorage.getItem('token'), localStorage.getItem('profile')])).toEqual([null, null, null]);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login/);
  });

  test('without remember-me, the session lives in this tab only', async ({ page, context }) => {
    await signIn(page, 'validator@sceau.example');
    expect(await page.evaluate(() => [sessionStorage.getItem('token') !== null, localStorage.getItem('token')])).toEqual([true, null]);
    const other = await context.newPage();
    await other.goto('/dashboard');
    await expect(other).toHaveURL(/\/login/);
    await other.close();
  });
});
