/**
 * Keyboard only: a person who cannot use a pointer signs in and verifies a diploma with Tab,
 * typing, Space and Enter. No click and no programmatic focus: each step tabs to the next control
 * and checks what has the focus, so a control that cannot be reached (or is reached without a name)
 * fails the journey.
 */
import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, focused, tabTo } from './support.ts';

test('signing in with the keyboard alone, the skip link first', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('#login-username')).toBeVisible();
  await page.keyboard.press('Tab');
  expect((await focused(page)).name).toMatch(/Aller au contenu principal|Skip to main content/);
  await page.keyboard.press('Enter');
  await tabTo(page, (f) => f.id === 'login-username', 'the e-mail or phone field');
  await page.keyboard.type('admin@sceau.example');
  await tabTo(page, (f) => f.id === 'login-password', 'the password field');
  await page.keyboard.type(DEMO_PASSWORD);
  await tabTo(page, (f) => f.id === 'login-remember', 'remember me');
  await page.keyboard.press('Space');
  await expect(page.locator('#login-remember')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});

test('a wrong password is announced and the person stays on the form', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('#login-username')).toBeVisible();
  await tabTo(page, (f) => f.id === 'login-username', 'the e-mail or phone field');
  await page.keyboard.type('admin@sceau.example');
  await tabTo(page, (f) => f.id === 'login-password', 'the password field');
  await page.keyboard.type('not-the-password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: /Contact ou mot de passe invalide|Invalid contact or password/ })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('verifying a diploma by its link with the keyboard alone', async ({ page }) => {
  const login = await page.request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'sceau-web', client_secret: 'sceau-web-dev-secret', username: 'root@sceau.example', password: DEMO_PASSWORD },
  });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const [batch] = (await (await page.request.get('/api/generations/by-user', { headers })).json()).data;
  const id = (await (await page.request.get(`/api/generations/${batch.id}`, { headers })).json()).data.items[0].diploma.id;

  await page.goto('/verification');
  await expect(page.locator('#verify-link')).toBeVisible();
  await tabTo(page, (f) => f.id === 'verify-link', "the diploma's link field");
  await page.keyboard.type(`http://127.0.0.1/verify/${id}`);
  await tabTo(page, (f) => f.tag === 'button' && /^(Vérifier|Verify)$/.test(f.name), 'the verify button');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
});
