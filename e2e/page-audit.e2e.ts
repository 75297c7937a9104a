/**
 * The audit of page-audit.ts must be able to fail: a page with a French sentence, a raw key or a
 * nameless button is caught, and the clean page is not.
 */
import { expect, test } from '@playwright/test';
import { accessibilityProblems, languageProblems, useLocale } from './page-audit.ts';

test('the page audit catches a leak of language, a raw key and a nameless button', async ({ page }) => {
  await useLocale(page, 'en');
  await page.goto('/contact');
  await page.waitForLoadState('networkidle');
  expect(await languageProblems(page, 'en')).toEqual([]);

  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    const add = (html: string) => main.insertAdjacentHTML('beforeend', html);
    add('<p>Vérifiez votre diplôme avec le code reçu par SMS</p>');
    add('<p>pages.contact.title</p>');
    add('<button type="button"><svg width="10" height="10"></svg></button>');
  });
  const language = (await languageProblems(page, 'en')).join('\n');
  expect(language).toMatch(/fr words/);
  expect(language).toMatch(/raw translation key shown: pages\.contact\.title/);
  expect((await accessibilityProblems(page)).join('\n')).toMatch(/button-name/);

  await useLocale(page, 'fr');
  await page.goto('/contact');
  await page.waitForLoadState('networkidle');
  expect(await languageProblems(page, 'fr')).toEqual([]);
  await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<p>Check your diploma with the code you were sent</p>'));
  expect((await languageProblems(page, 'fr')).join('\n')).toMatch(/en words/);
});
