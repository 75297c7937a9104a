/**
 * What every page of the journeys is held to, beyond its own assertions (issue 7):
 * - accessibility: axe-core finds no serious or critical violation (WCAG 2.1 A and AA rules);
 * - language: an English page shows no French and a French page no English, and no page shows a
 *   raw translation key;
 * - a screenshot per page, language and width, for people to look at the whole platform.
 *
 * Language leaks are found two ways: text of the other language's catalogue (a string the page
 * forgot to translate), and the other language's common words in a line (a string written into
 * the code instead of the catalogue). Names and places that come from the database (schools,
 * options, candidates, templates...) are the same in both languages and are taken out first.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { queryDatabase, snap } from './support.ts';

export type Locale = 'fr' | 'en';
export type Width = 'phone' | 'desktop';

export const VIEWPORTS: Record<Width, { width: number; height: number }> = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
};

const NAMESPACES = ['web', 'errors', 'verification'] as const;
const LOCALES_DIR = path.resolve(import.meta.dirname, '..', 'packages', 'i18n', 'locales');

type Catalogue = Map<string, string>;

function flatten(value: unknown, prefix: string, into: Catalogue): void {
  if (typeof value === 'string') into.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  }
}

function catalogue(locale: Locale): Catalogue {
  const into: Catalogue = new Map();
  for (const ns of NAMESPACES) {
    flatten(JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, `${ns}.json`), 'utf8')), ns, into);
  }
  return into;
}

const CATALOGUES: Record<Locale, Catalogue> = { fr: catalogue('fr'), en: catalogue('en') };

/** Keys as a page could show them when a translation is missing: `a.b.c` and `ns:a.b.c`. */
const RAW_KEYS = new Set(
  [...CATALOGUES.fr.keys()].flatMap((full) => {
    const [ns, ...rest] = full.split('.');
    const key = rest.join('.');
    return key.includes('.') ? [key, `${ns}:${key}`] : [`${ns}:${key}`];
  }),
);

/**
 * Pieces of the other language's catalogue that cannot appear in this language's text: the
 * literal parts (between interpolations and markup) of at least 12 characters, found nowhere in
 * this language's catalogue.
 */
function foreignFragments(foreign: Locale, own: Locale): string[] {
  const ownText = [...CATALOGUES[own].values()].join('\n').toLowerCase();
  const fragments = new Set<string>();
  for (const value of CATALOGUES[foreign].values()) {
    for (const part of value.split(/\{\{[^}]*\}\}|<[^>]*>|\$t\([^)]*\)/)) {
      const text = part.trim();
      if (text.length >= 12 && /\p{L}{3}/u.test(text) && !ownText.includes(text.toLowerCase())) fragments.add(text);
    }
  }
  return [...fragments];
}

const FRAGMENTS: Record<Locale, string[]> = { fr: foreignFragments('en', 'fr'), en: foreignFragments('fr', 'en') };

/** Common words of each language that the other one does not use. */
const STOPWORDS: Record<Locale, Set<string>> = {
  fr: new Set(['le', 'la', 'les', 'des', 'du', 'une', 'est', 'pour', 'avec', 'vous', 'votre', 'vos', 'dans', 'aux', 'cette', 'sont', 'pas', 'être', 'été', 'sur', 'ou', 'et']),
  en: new Set(['the', 'and', 'your', 'you', 'with', 'for', 'this', 'is', 'are', 'of', 'to', 'from', 'has', 'have', 'not', 'been', 'was', 'will', 'or', 'on']),
};

/**
 * Names and places held in the platform's database: shown as they are, in both languages. Read
 * again for each page, since journeys add batches and candidates as they go.
 */
async function dataTerms(): Promise<string[]> {
  const rows = await queryDatabase<{ term: string }>(`
    select distinct term from (
      select name_fr as term from countries union all select name_en from countries
      union all select name from exam_sessions
      union all select name from educ_provinces union all select province from educ_provinces
      union all select name from options union all select section from options
      union all select name from centres union all select city from centres
      union all select name from institutions union all select city from institutions
      union all select name from templates
      union all select title from generations
      union all select signer_name from official_signatures union all select signer_title from official_signatures
      union all select name from users union all select first_name from users
      union all select last_name from generation_items union all select middle_name from generation_items
      union all select first_name from generation_items union all select birth_place from generation_items
      union all select concat_ws(' ', last_name, middle_name, first_name) from generation_items
    ) t where term is not null and length(term) > 1`);
  // Longest first, so that a full name goes before its parts.
  return rows.map((r) => r.term).sort((a, b) => b.length - a.length);
}

/** The page's visible text, line by line, without what comes from the database. */
async function visibleLines(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const terms = await dataTerms();
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (!line) continue;
    for (const term of terms) if (line.includes(term)) line = line.split(term).join(' ');
    line = line.trim();
    if (line) lines.push(line);
  }
  return lines;
}

function words(line: string): string[] {
  return line
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/** Problems of language on the page, each one a readable line. */
export async function languageProblems(page: Page, locale: Locale): Promise<string[]> {
  const problems: string[] = [];
  const lang = await page.locator('html').getAttribute('lang');
  if (lang !== locale) problems.push(`<html lang="${lang}"> on a page expected in ${locale}`);
  const foreign: Locale = locale === 'fr' ? 'en' : 'fr';
  const lines = await visibleLines(page);
  const body = lines.join('\n');
  for (const fragment of FRAGMENTS[locale]) {
    if (body.includes(fragment)) problems.push(`${foreign} catalogue text on a ${locale} page: "${fragment}"`);
  }
  for (const line of lines) {
    const hits = new Set(words(line).filter((w) => STOPWORDS[foreign].has(w) && !STOPWORDS[locale].has(w)));
    if (hits.size >= 2) problems.push(`${foreign} words (${[...hits].join(', ')}) in "${line.slice(0, 120)}"`);
    for (const token of line.match(/[A-Za-z]+:?[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+/g) ?? []) {
      if (RAW_KEYS.has(token)) problems.push(`raw translation key shown: ${token}`);
    }
  }
  return problems;
}

/** Serious and critical accessibility violations, each one a readable line. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * Holds the current page to the platform's standards (soft assertions: every problem of every
 * page is reported at the end of the test) and saves its screenshot as `<name>-<locale>-<width>`.
 */
export async function auditPage(page: Page, name: string, locale: Locale, width: Width): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar', { name: /chargement|loading/i })).toHaveCount(0);
  const label = `${name} (${locale}, ${width})`;
  expect.soft(await languageProblems(page, locale), `language on ${label}`).toEqual([]);
  expect.soft(await accessibilityProblems(page), `accessibility on ${label}`).toEqual([]);
  await snap(page, `${name}-${locale}-${width}`);
}

/** Opens pages in the given language (stored as the app stores it, before any script runs). */
export async function useLocale(page: Page, locale: Locale): Promise<void> {
  await page.addInitScript((lang) => localStorage.setItem('lang', lang), locale);
}
