import { STORAGE_KEYS, type Profile } from '@sceau/contracts';
import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { RouterProvider } from 'react-router/dom';
import { Providers } from '@/app/providers';
import { buildRoutes } from '@/app/router';
import { DEFAULT_CONFIG } from '@/lib/config';
import { createFlashStore } from '@/lib/flash';
import { createHttpClient } from '@/lib/http';
import { currentLocale, i18n } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query';
import { createSessionStore } from '@/lib/session';
import { readToken } from '@/lib/storage';
import { translate } from '@/lib/text-keys';
import { mockFetch } from '@/test/fixtures';

export interface RenderAppOptions {
  path: string;
  /** Signed in: a token in sessionStorage and, unless `cached: false`, the profile cached. */
  signedIn?: { profile: Profile; cached?: boolean; remember?: boolean };
  routes?: Parameters<typeof mockFetch>[0];
  product?: string;
}

/** The whole app (real routes, guards, layout) in a memory router, with a fetch double. */
export function renderApp({ path, signedIn, routes = {}, product = DEFAULT_CONFIG.product }: RenderAppOptions) {
  if (signedIn) {
    (signedIn.remember ? localStorage : sessionStorage).setItem(STORAGE_KEYS.token, 'test-token');
    if (signedIn.cached !== false) localStorage.setItem(STORAGE_KEYS.profile, JSON.stringify(signedIn.profile));
  }
  const fetchDouble = mockFetch(routes);
  // Pages call through the app's one client, which reads the global fetch at each call.
  vi.stubGlobal('fetch', fetchDouble.fetch);
  const http = createHttpClient({
    fetch: fetchDouble.fetch,
    getLocale: () => currentLocale(),
    getToken: readToken,
    translate: (key) => translate(i18n, key),
    baseUrl: '/api',
  });
  const session = createSessionStore({ http, config: DEFAULT_CONFIG });
  const flash = createFlashStore();
  const queryClient = createQueryClient();
  const router = createMemoryRouter(buildRoutes({ session, flash, product }), { initialEntries: [path] });
  const view = render(
    <Providers services={{ session, flash, queryClient, i18n }}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, session, flash, calls: fetchDouble.calls };
}
