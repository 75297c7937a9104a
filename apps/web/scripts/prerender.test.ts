import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueKeys, rawKeysIn, textsOf } from './prerender.ts';
import type { FirstScreen } from './prerender/first-screen.tsx';

/**
 * The first screens the build writes (ADR 0151), built and rendered as `npm run build` does: the
 * app's own components, in both languages, with the texts of the catalogues.
 */
const require = createRequire(import.meta.url);
const catalogue = (locale: string) => require(`@sceau/i18n/locales/${locale}/web.json`) as Record<string, Record<string, string>>;

let dir: string;
let screens: FirstScreen[];
beforeAll(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'sceau-first-screen-'));
  const config = JSON.stringify({
    appName: 'Sceau',
    issuer: { name: 'Ministère des essais', nameEn: 'Ministry of Trials', shortName: 'MIN-ESSAI', email: 'ecrire@essai.example' },
  });
  // As `npm run build` runs it (in its own Node process: the module sets browser stand-ins).
  await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'prerender.ts'), '--dist', dir, '--config', config], {
    cwd: join(import.meta.dirname, '..'),
  });
  screens = JSON.parse(await readFile(join(dir, '.server', 'first-screens.json'), 'utf8')) as FirstScreen[];
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const screen = (locale: string, path: string) => {
  const found = screens.find((s) => s.locale === locale && s.path === path);
  if (!found) throw new Error(`no first screen ${locale} ${path}`);
  return found;
};
const texts = (locale: string, path: string) => textsOf(screen(locale, path).html);

describe('first screens of the public pages', () => {
  it('renders /, /verification, /student-check (and /mon-{product}), /login, /register and /contact in French and English', () => {
    const pages = ['/', '/contact', '/login', '/mon-exetat', '/register', '/student-check', '/verification'];
    expect(screens.map((s) => `${s.locale} ${s.path}`).sort()).toEqual([...pages.map((p) => `en ${p}`), ...pages.map((p) => `fr ${p}`)]);
  });

  it.each(['fr', 'en'])('has each page h1 and lead in %s, from the catalogue', (locale) => {
    const web = catalogue(locale);
    expect(screen(locale, '/').html).toMatch(/<h1 id="home-title">/);
    expect(texts(locale, '/')).toContain(web.home!.title!.replace('{{appName}}', 'Sceau'));
    expect(texts(locale, '/')).toContain(web.home!.lead);
    expect(texts(locale, '/verification')).toContain(web.verify!.pageTitle);
    expect(texts(locale, '/verification')).toContain(web.verify!.intro);
    expect(texts(locale, '/login')).toContain(web.login!.title);
    expect(screen(locale, '/login').html).toContain('type="password"');
    expect(screen(locale, '/login').title).toBe(`${web.login!.title} · Sceau`);
    // The candidate check (results day's page) and registration: their heading, lead and form.
    expect(texts(locale, '/student-check')).toContain(web.candidateCheck!.title);
    expect(screen(locale, '/student-check').html).toContain('name="last_name"');
    expect(screen(locale, '/student-check').title).toBe(`${web.candidateCheck!.title} · Sceau`);
    // The same page at the configured product's path (the default product here: exetat).
    expect(texts(locale, '/mon-exetat')).toEqual(texts(locale, '/student-check'));
    expect(screen(locale, '/mon-exetat').title).toBe(screen(locale, '/student-check').title);
    expect(texts(locale, '/register')).toContain(web.register!.title);
    expect(screen(locale, '/register').html).toContain('type="password"');
    expect(texts(locale, '/contact')).toContain(web.contactPage!.title);
    expect(screen(locale, '/contact').html).toContain('name="subject"');
    expect(screen(locale, '/contact').title).toBe(`${web.contactPage!.title} · Sceau`);
  });

  it('shows the header and footer with the runtime configuration, in the page language', () => {
    expect(screen('fr', '/').html).toContain('class="site-header"');
    expect(screen('fr', '/').html).toContain('class="site-footer"');
    expect(texts('fr', '/verification')).toContain('Ministère des essais');
    expect(texts('en', '/verification')).toContain('Ministry of Trials');
    expect(screen('en', '/').html).toContain('<option value="en" lang="en" selected="">');
  });

  it('shows no text as its catalogue key', () => {
    const keys = catalogueKeys();
    expect(keys.has('home.title')).toBe(true);
    for (const s of screens) expect(rawKeysIn(s.html, keys), `${s.locale} ${s.path}`).toEqual([]);
    expect(rawKeysIn('<p>home.lead</p>', keys)).toEqual(['home.lead']);
  });
});
