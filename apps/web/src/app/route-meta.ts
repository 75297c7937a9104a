import { HEADERLESS_ROUTE_NAMES, STICKY_HEADER_PATHS, STICKY_HEADER_THRESHOLD_PX, type AppRoute } from '@sceau/contracts';

/**
 * Which part of the site a route belongs to; the layout rules of spec section 2 hang on it.
 * - public: the visitor-facing site (public header links, footer);
 * - auth: the named authentication screens (login, register, ...: no footer);
 * - backoffice: the authenticated area of the spec's "Authenticated routes" table (no footer);
 * - not_found: the 404 page.
 */
export type Area = 'public' | 'auth' | 'backoffice' | 'not_found';

export interface RouteHandle {
  name: string;
  area: Area;
}

/**
 * The spec lists /permission-test among the public routes although it needs users.list: it keeps
 * the public layout (header links, footer) and only its guard is an authenticated one.
 */
const PUBLIC_LAYOUT_PATHS: readonly string[] = ['/permission-test'];

export function routeName(route: AppRoute): string {
  if (route.name) return route.name;
  if (route.path === '/') return 'home';
  return route.path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith(':'))
    .join('_')
    .replace(/[-:]/g, '_');
}

export function routeArea(route: AppRoute): Area {
  if (route.name) return 'auth';
  if (route.access === 'auth' && !PUBLIC_LAYOUT_PATHS.includes(route.path)) return 'backoffice';
  return 'public';
}

export function handleFor(route: AppRoute): RouteHandle {
  return { name: routeName(route), area: routeArea(route) };
}

export const NOT_FOUND_HANDLE: RouteHandle = { name: 'not_found', area: 'not_found' };

export function isHeaderHidden(handle: RouteHandle): boolean {
  return (HEADERLESS_ROUTE_NAMES as readonly string[]).includes(handle.name);
}

/** Footer: public pages only (hidden on the authenticated area, the auth screens and the 404). */
export function isFooterHidden(handle: RouteHandle): boolean {
  return handle.area !== 'public';
}

export function isStickyHeaderPath(pathname: string): boolean {
  return (STICKY_HEADER_PATHS as readonly string[]).includes(pathname);
}

export function shouldStickHeader(pathname: string, scrollY: number): boolean {
  return isStickyHeaderPath(pathname) && scrollY > STICKY_HEADER_THRESHOLD_PX;
}

/** `/mon-:product` cannot be matched by a partial segment: the configured product is put in. */
export function resolveRoutePath(path: string, product: string): string {
  return path.replace(':product', encodeURIComponent(product));
}
