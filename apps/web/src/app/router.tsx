import { APP_ROUTES, type AppRoute } from '@sceau/contracts';
import {
  type RouteObject,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createRouter,
  UNSAFE_defaultMapRouteProperties as defaultMapRouteProperties,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
} from 'react-router';
import { createGuardLoader } from '@/app/guards';
import { RootLayout } from '@/app/root-layout';
import { RouteError } from '@/app/route-error';
import { BootScreen } from '@/components/boot-screen';
import { handleFor, NOT_FOUND_HANDLE, resolveRoutePath } from '@/app/route-meta';
import { loadNotFoundPage, ROUTE_PAGES } from '@/app/pages';
import type { FlashStore } from '@/lib/flash';
import { loadRouteTexts } from '@/lib/i18n';
import type { SessionStore } from '@/lib/session';

export interface RouterDeps {
  session: SessionStore;
  flash: FlashStore;
  product: string;
}

/** Every route of the contracts' table (spec section 2), with its guard, plus the 404. */
export function buildRoutes(deps: RouterDeps): RouteObject[] {
  const pages: RouteObject[] = APP_ROUTES.map((route: AppRoute) => {
    const loadPage = ROUTE_PAGES[route.path as keyof typeof ROUTE_PAGES];
    return {
      path: resolveRoutePath(route.path, deps.product),
      handle: handleFor(route),
      loader: createGuardLoader(route, deps),
      // The page's texts come with its code (ADR 0097).
      lazy: async () => ({ Component: (await Promise.all([loadPage(), loadRouteTexts(route)]))[0] }),
      ErrorBoundary: RouteError,
    };
  });
  return [
    {
      id: 'root',
      Component: RootLayout,
      HydrateFallback: BootScreen,
      ErrorBoundary: RouteError,
      children: [...pages, { path: '*', handle: NOT_FOUND_HANDLE, lazy: async () => ({ Component: await loadNotFoundPage() }) }],
    },
  ];
}

/**
 * The browser router, not yet started: what `createBrowserRouter` builds (the same options; no
 * hydration data, the pages are not rendered by a React server), before its `initialize()`, which
 * matches the page, runs its guard and loads its chunk. main.tsx starts it in a task of its own: the
 * two steps in one were the longest task of the SPA's start (ADR 0151, amended).
 */
export function createAppRouter(deps: RouterDeps) {
  return createRouter({
    history: createBrowserHistory(),
    routes: buildRoutes(deps),
    mapRouteProperties: defaultMapRouteProperties,
    hydrationRouteProperties,
  });
}
