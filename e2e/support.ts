import { expect, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

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
  await page
    .getByRole('combobox', { name: /^(Langue|Language)$/ })
    .first()
    .selectOption(locale);
}

/** The latest message the platform "sent" to an address (the development outbox), and its code. */
export async function lastCode(page: Page, to: string): Promise<string> {
  let text = '';
  await expect(async () => {
    const res = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}&limit=1`);
    const [message] = (await res.json()).data as { text: string }[];
    text = message?.text ?? '';
    expect(text).toMatch(/\b\d{6}\b/);
  }).toPass({ timeout: 10_000 });
  return text.match(/\b(\d{6})\b/)![1]!;
}

/** A confirmed self-registered account, made through the API (for journeys that start from one). */
export async function registeredAccount(page: Page, email: string, password: string): Promise<void> {
  const post = (url: string, data: object) => page.request.post(url, { data });
  const registered = await post('/api/register', { name: 'Mwamba', mail_or_phone: email, password, password_confirmation: password });
  expect(registered.ok()).toBe(true);
  // A registration code is bound to the registration attempt (ADR 0113).
  const { registration } = ((await registered.json()) as { data: { registration: string } }).data;
  expect((await post('/api/register/getOtp', { mail_or_phone: email, registration })).ok()).toBe(true);
  const otp = await lastCode(page, email);
  expect((await post('/api/register/validateOtp', { otp, mail_or_phone: email, registration })).ok()).toBe(true);
}

export type Focused = { id: string; name: string; tag: string; type: string };

export async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return { id: '', name: '', tag: '', type: '' };
    const labelled = el.getAttribute('aria-label') ?? (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ?? el.textContent ?? '';
    return { id: el.id, name: labelled.trim(), tag: el.tagName.toLowerCase(), type: (el as HTMLInputElement).type ?? '' };
  });
}

/** Presses Tab until the focused element matches, as a person tabbing through the page would. */
export async function tabTo(page: Page, matches: (f: Focused) => boolean, what: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(`${what} cannot be reached with the Tab key (${max} presses)`);
}

/** Rows from the journeys' own database (the embedded PostgreSQL that serve-fresh.ts starts). */
export async function queryDatabase<T extends object>(text: string, values: unknown[] = []): Promise<T[]> {
  const port = Number(process.env.E2E_PG_PORT ?? 54391);
  const client = new pg.Client({ connectionString: `postgres://sceau:sceau@127.0.0.1:${port}/sceau` });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
