import { APP_ROUTES, checkRequirement, type AppRoute, type Grants } from '@sceau/contracts';

/** The APP_ROUTES entry for a path of the table (e.g. '/certificates'), for links and gates. */
export function appRoute(path: (typeof APP_ROUTES)[number]['path']): AppRoute {
  const route = APP_ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`Unknown route ${path}`);
  return route;
}

/**
 * Whether the route guard of a page of the table lets these grants in (the spec's guard, the same one
 * the router applies). Links to a page also need what the object allows (its abilities): this only
 * avoids offering a link the router would refuse.
 */
export function mayOpen(grants: Grants, path: (typeof APP_ROUTES)[number]['path']): boolean {
  const { requirement } = appRoute(path);
  return !requirement || checkRequirement(grants, requirement) === null;
}
