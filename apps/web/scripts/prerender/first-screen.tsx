import './server-globals.ts';
import { LOCALES, type Locale } from '@sceau/contracts';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '@/app/providers';
import { resolveRoutePath } from '@/app/route-meta';
import { buildRoutes } from '@/app/router';
import { appConfig, readConfig } from '@/lib/config';
import { createFlashStore } from '@/lib/flash';
import { http } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query';
import { createSessionStore } from '@/lib/session';

/**
 * The first screen of the public pages, rendered by the app's own components (ADR 0151): the
 * layout (header, footer), the page in the router, the texts of the same catalogues, for a visitor
 * with no session. Built by `vite build --ssr` into the web build (scripts/prerender.ts); the API
 * calls it once at start with the deployment's runtime configuration (plugins/web.ts), so that the
 * issuer's name and links are the ones the SPA will show.
 */

/** The pages written this way: their markup replaces index.html's app shell. */
export const FIRST_SCREEN_PATHS = ['/', '/verification', '/student-check', '/login', '/register', '/contact'] as const;
export type FirstScreenPath = (typeof FIRST_SCREEN_PATHS)[number];

/**
 * The candidate check also answers at `/mon-{product}` (spec section 3), a path of the deployment's
 * configuration: its first screen is rendered for the configured product, the same page.
 */
const PRODUCT_PATH = '/mon-:product';

export interface FirstScreen {
  /** One of FIRST_SCREEN_PATHS, or the configured `/mon-{product}`. */
  path: string;
  locale: Locale;
  /** The page's `<title>`, as useDocumentTitle sets it. */
  title: string;
  /** The markup inside `<div id="root">`. */
  html: string;
}

/** The runtime configuration the server puts in index.html's meta (JSON), read as the SPA reads it. */
function applyConfig(json: string | null): void {
  if (json === null) return;
  const doc = { querySelector: () => ({ getAttribute: () => json }) } as unknown as Document;
  Object.assign(appConfig, readConfig(doc));
}

async function renderPage(path: FirstScreenPath, locale: Locale, at: string = path): Promise<FirstScreen> {
  const session = createSessionStore({ http, config: appConfig });
  const router = createMemoryRouter(buildRoutes({ session, flash: createFlashStore(), product: appConfig.product }), { initialEntries: [at] });
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  // useDocumentTitle sets it in an effect; the server reads it from the page's own texts.
  const html = renderToString(
    <StrictMode>
      <Providers services={{ session, flash: createFlashStore(), queryClient: createQueryClient(), i18n }}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  router.dispose();
  if (router.state.errors) throw new Error(`first screen of ${at} (${locale}) failed: ${JSON.stringify(router.state.errors)}`);
  return { path: at, locale, title: documentTitle(path), html };
}

const TITLE_KEYS = {
  '/': 'home.documentTitle',
  '/verification': 'verify.pageTitle',
  '/student-check': 'candidateCheck.title',
  '/login': 'login.title',
  '/register': 'register.title',
  '/contact': 'contactPage.title',
} as const satisfies Record<FirstScreenPath, string>;

function documentTitle(path: FirstScreenPath): string {
  return `${i18n.t(TITLE_KEYS[path], { appName: appConfig.appName })} · ${appConfig.appName}`;
}

/**
 * Every public first screen in every language. Renders one after the other: the app's i18n
 * instance is switched to each language in turn (it keeps the parts loaded for the other).
 */
export async function renderFirstScreens(configJson: string | null = null): Promise<FirstScreen[]> {
  applyConfig(configJson);
  const screens: FirstScreen[] = [];
  for (const locale of LOCALES) {
    await i18n.changeLanguage(locale);
    for (const path of FIRST_SCREEN_PATHS) screens.push(await renderPage(path, locale));
    screens.push(await renderPage('/student-check', locale, resolveRoutePath(PRODUCT_PATH, appConfig.product)));
  }
  return screens;
}
