import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROUTES } from '@sceau/contracts';
import { describe, expect, it } from 'vitest';
import { publicPrecache } from './precache.ts';
import { type Manifest, routePageModules } from './size.ts';

const pagesSource = readFileSync(join(import.meta.dirname, '..', 'src', 'app', 'pages.ts'), 'utf8');
const pages = routePageModules(pagesSource);

/** A build's manifest with every page of pages.ts, one shared chunk, and the QR chunks loaded on demand. */
function manifest(): Manifest {
  const out: Manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'], css: ['assets/index.css'] },
    '_react.js': { file: 'assets/react.js' },
    '_staff.js': { file: 'assets/staff-shared.js' },
    'src/features/verification/camera-scanner.tsx': { file: 'assets/camera.js', isDynamicEntry: true, dynamicImports: ['src/features/verification/qr-decode.ts'] },
    'src/features/verification/qr-decode.ts': { file: 'assets/qr-decode.js', isDynamicEntry: true },
  };
  for (const language of ['fr', 'en']) {
    for (const part of ['boot', 'verify', 'verification', 'forms', 'staff', 'home', 'legal', 'contact', 'candidate']) {
      out[`virtual:sceau-texts/${language}/${part}`] = { file: `assets/texts-${language}-${part}.js`, isDynamicEntry: true };
    }
  }
  for (const route of APP_ROUTES) {
    const module = `${pages.get(route.path)}.tsx`;
    const name = route.path.replace(/[^a-z]+/g, '-');
    out[module] ??= { file: `assets/page${name}.js`, isDynamicEntry: true, imports: route.access === 'public' ? ['_react.js'] : ['_staff.js'] };
  }
  out['src/features/verification/verification-page.tsx']!.dynamicImports = ['src/features/verification/camera-scanner.tsx'];
  return out;
}

describe('the service worker precache', () => {
  const files = publicPrecache(manifest(), pagesSource);

  it('holds the entry, the public pages, the chunks they load on demand (transitively) and their texts in both languages', () => {
    expect(files).toContain('assets/index.js');
    expect(files).toContain('assets/index.css');
    expect(files).toContain('assets/page-verification.js');
    expect(files).toContain('assets/page-verify-id.js');
    expect(files).toContain('assets/camera.js');
    expect(files).toContain('assets/qr-decode.js');
    expect(files).toContain('assets/texts-fr-boot.js');
    expect(files).toContain('assets/texts-en-boot.js');
  });

  it('leaves the staff pages to the network', () => {
    expect(files).not.toContain('assets/page-dashboard.js');
    expect(files).not.toContain('assets/staff-shared.js');
  });
});
