import { expect, test } from '@playwright/test';
import { chooseLanguage, lastCode, registeredAccount, signIn, snap } from './support.ts';

test.describe('accounts', () => {
  test('a person registers with an e-mail, confirms with the code, and lands on the dashboard with no role', async ({ page }) => {
    await page.goto('/register');
    await snap(page, 'register-fr-desktop');
    await page.getByLabel('E-mail', { exact: true }).check();
    await page.locator('#register-name').fill('Kabamba');
    await page.locator('#register-first-name').fill('Élodie');
    await page.locator('#register-email').fill('elodie.kabamba@example.cd');
    await page.locator('#register-password').fill('Kinshasa-2026');
    await page.locator('#register-password-confirmation').fill('Kinshasa-2026');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();

    await expect(page).toHaveURL(/\/otp-validation/);
    await expect(page.getByTestId('otp-destination')).toContainText('par e-mail');
    await snap(page, 'otp-validation-fr-desktop');
    // A wrong code first: refused, with the attempts left.
    const code = await lastCode(page, 'elodie.kabamba@example.cd');
    await page.locator('#otp-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Valider le code' }).click();
    await expect(page.locator('#otp-code-error')).toContainText('Tentatives restantes : 4');
    await page.locator('#otp-code').fill(code);
    await page.getByRole('button', { name: 'Valider le code' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Élodie Kabamba');
    // No staff permission: what the account can do, not an empty back office.
    await expect(page.getByRole('link', { name: /Vérifier un diplôme/ }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: /Consulter mon résultat/ })).toBeVisible();
    // No role: the back-office pages are refused.
    await page.goto('/certificates');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Accès non autorisé' }).first()).toBeVisible();
  });

  test('a person registers with a phone number in English and confirms by SMS', async ({ page }) => {
    await page.goto('/register');
    await chooseLanguage(page, 'en');
    await page.locator('#register-name').fill('Tshala');
    await page.locator('#register-phone').fill('09912345');
    // Too short once its national 0 is dropped: refused for DR Congo, with the expected length named.
    await page.locator('#register-password').fill('Lubumbashi-2026');
    await page.locator('#register-password-confirmation').fill('Lubumbashi-2026');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page.getByText('For this country, the number must have exactly 9 digits').first()).toBeVisible();
    // Typed as people write it, with its national 0 (ADR 0129): +243991234567.
    await page.locator('#register-phone').fill('0991234567');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page).toHaveURL(/\/otp-validation/);
    await expect(page.getByTestId('otp-destination')).toContainText('SMS');
    await page.locator('#otp-code').fill(await lastCode(page, '+243991234567'));
    await page.getByRole('button', { name: /Validate|Confirm|Check/ }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a person recovers a forgotten password with a code', async ({ page }) => {
    // Their own account (the demo accounts keep their password for the other journeys).
    await registeredAccount(page, 'oubli@example.cd', 'Ancien-Secret-2026');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.locator('#forgot-email').fill('oubli@example.cd');
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await expect(page).toHaveURL(/\/otp-validation/);
    await page.locator('#otp-code').fill(await lastCode(page, 'oubli@example.cd'));
    await page.getByRole('button', { name: 'Valider le code' }).click();

    await expect(page).toHaveURL(/\/reset-password$/);
    await snap(page, 'reset-password-fr-desktop');
    await page.locator('#reset-password').fill('Nouveau-Secret-2026');
    await page.locator('#reset-password-confirmation').fill('Nouveau-Secret-2026');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Votre mot de passe a été modifié.')).toBeVisible();

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await signIn(page, 'oubli@example.cd', { password: 'Nouveau-Secret-2026' });
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an admin adds a member of staff, who must change the temporary password at first sign-in', async ({ page, browser }) => {
    await signIn(page, 'admin@sceau.example');
    await page.goto('/role-access');
    await snap(page, 'role-access-fr-desktop');
    await page.getByRole('button', { name: 'Ajouter un utilisateur' }).click();
    await page.locator('#user-new-name').fill('Ngoy');
    await page.locator('#user-new-first-name').fill('Bénédicte');
    await page.locator('#user-new-email').fill('b.ngoy@ministere.example');
    await page.getByRole('checkbox', { name: 'Contrôleur' }).check();
    await page.getByRole('button', { name: 'Créer le compte' }).click();
    await expect(page.getByText(/Compte de .*Ngoy.* créé/).first()).toBeVisible();

    const messages = await page.request.get('/api/dev/outbox?to=b.ngoy%40ministere.example&limit=1').then((r) => r.json());
    const temporary = (messages.data[0].text as string).match(/temporaire : (\S+)/)![1]!;
    const staff = await browser.newPage();
    await signIn(staff, 'b.ngoy@ministere.example', { password: temporary });
    await expect(staff).toHaveURL(/\/reset-password$/);
    await staff.close();
  });
});
