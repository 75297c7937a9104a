import { expect, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export const DEMO_PASSWORD = 'Sceau-Demo-2026';
export const SCREENSHOTS = path.join(import.meta.dirname, 'artifacts', 'screenshots');

/** Saves a full-page screenshot under e2e/artifacts/screenshots/ (CI keeps them as artifacts). */
export async function snap(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, email: string, options: { remember?: boolean; password?: string } = {}): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel(/E-mail ou téléphone|E-mail or phone/).fill(email);
  await page.getByLabel(/^(Mot de passe|Password)$/).fill(options.password ?? DEMO_PASSWORD);
  if (options.remember) await page.getByLabel(/Se souvenir de moi|Remember me/).check();
  await page.getByRole('button', { name: /^(Se connecter|Sign in)$/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Chooses the interface language with the page's selector (the header's, or the sign-in page's). */
export async function chooseLanguage(page: Page, locale: 'fr' | 'en'): Promise<void> {
  await page.getByRole('combobox', { name: /^(Langue|Language)$/ }).first().selectOption(locale);
}
