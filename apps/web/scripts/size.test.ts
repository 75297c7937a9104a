import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, PAGES, pageFiles, routePageModules, routeTextModules, sentBytes } from './size';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js', '_i18n.js'],
    dynamicImports: ['src/features/home/home-page.tsx', 'virtual:sceau-texts/fr/boot', 'virtual:sceau-texts/fr/home'],
    css: ['assets/index.css'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_i18n.js': { file: 'assets/i18n.js', imports: ['_react.js'] },
  '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
  'virtual:sceau-texts/fr/boot': { file: 'assets/boot.js', isDynamicEntry: true },
  'virtual:sceau-texts/fr/home': { file: 'assets/home-texts.js', isDynamicEntry: true },
  'virtual:sceau-texts/en/home': { file: 'assets/home-texts-en.js', isDynamicEntry: true },
  'src/features/home/home-page.tsx': { file: 'assets/home.js', isDynamicEntry: true, imports: ['_shared.js', 'index.html'], dynamicImports: ['src/features/heavy.ts'] },
  'src/features/heavy.ts': { file: 'assets/heavy.js', isDynamicEntry: true },
};

describe('npm run size', () => {
  it('counts the entry, its static imports, the boot catalogue and the page with its static imports, each once', () => {
    expect(pageFiles(manifest, ['src/features/home/home-page', 'virtual:sceau-texts/fr/home'], ['virtual:sceau-texts/fr/boot'])).toEqual({
      js: ['assets/boot.js', 'assets/home-texts.js', 'assets/home.js', 'assets/i18n.js', 'assets/index.js', 'assets/react.js', 'assets/shared.js'],
      css: ['assets/index.css'],
    });
  });

  it('refuses a page or boot module missing from the build rather than measuring less', () => {
    expect(() => pageFiles(manifest, 'src/features/gone/gone-page')).toThrow('not in the build');
    expect(() => pageFiles(manifest, 'src/features/home/home-page', ['virtual:sceau-texts/de/boot'])).toThrow('not in the build');
  });

  it("finds each measured page's module in the router's page table", () => {
    const modules = routePageModules(readFileSync(join(import.meta.dirname, '..', 'src', 'app', 'pages.ts'), 'utf8'));
    for (const { route } of PAGES) expect(modules.get(route), route).toMatch(/^src\/features\//);
    expect(modules.get('/verify/:id')).toBe('src/features/verification/verify-page');
  });

  it('counts the texts the router loads with each measured page, in French', () => {
    expect(routeTextModules('/')).toEqual(['virtual:sceau-texts/fr/home']);
    expect(routeTextModules('/verify/:id')).toEqual(['virtual:sceau-texts/fr/verify']);
    expect(routeTextModules('/contact')).toEqual(['virtual:sceau-texts/fr/contact', 'virtual:sceau-texts/fr/forms']);
    expect(routeTextModules('/settings', 'auth')).toEqual(['virtual:sceau-texts/fr/staff', 'virtual:sceau-texts/fr/forms']);
  });
});

describe('the bytes npm run size counts', () => {
  const sizes: Record<string, number> = { 'a.js': 1000, 'a.js.br': 200, 'a.js.gz': 260, 'tiny.js': 300 };
  const sizeOf = (path: string) => sizes[path] ?? null;

  it("are the build's compressed copy the server sends, or the file itself where the build wrote none", () => {
    expect(sentBytes('a.js', 'br', sizeOf)).toBe(200);
    expect(sentBytes('a.js', 'gz', sizeOf)).toBe(260);
    expect(sentBytes('tiny.js', 'br', sizeOf)).toBe(300);
  });

  it('refuse a file missing from the build', () => {
    expect(() => sentBytes('gone.js', 'gz', sizeOf)).toThrow('missing from the build');
  });
});
