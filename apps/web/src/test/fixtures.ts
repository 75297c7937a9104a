import { DEFAULT_ROLE_PERMISSIONS, type HolderDiplomaView, type Profile, type RoleName } from '@sceau/contracts';

/** A profile as GET /me returns it, holding the given roles with their default permissions. */
export function makeProfile(roles: RoleName[], overrides: Partial<Profile> = {}): Profile {
  let id = 1;
  const roleViews = roles.map((name, index) => ({
    id: index + 1,
    name,
    permissions: DEFAULT_ROLE_PERMISSIONS[name].map((permission) => ({ id: id++, name: permission })),
  }));
  const permissions = [...new Set(roleViews.flatMap((role) => role.permissions.map((p) => p.name)))].sort();
  // Fields the API may add to the profile; spread so the fixture follows either version of it.
  const accountFlags = { password_reset_required: false, google_linked: false };
  return {
    ...accountFlags,
    id: 7,
    name: 'Mukendi',
    first_name: 'Aline',
    email: 'aline@example.cd',
    phone: null,
    locale: 'fr',
    roles: roleViews,
    permissions,
    scope: { institution_id: null, centre_id: null, province_id: null },
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A fetch double routing by "METHOD /path"; unknown calls fail loudly. Records every call. */
export function mockFetch(routes: Record<string, Handler>) {
  const calls: { method: string; url: URL; init: RequestInit }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    calls.push({ method, url, init });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return jsonResponse({ code: 'not_found', message: `No mock for ${method} ${url.pathname}` }, 404);
    return handler(url, init);
  };
  return { fetch: fetchMock as typeof fetch, calls };
}

/** A holder's diploma as `GET /api/holder/diplomas` lists it: valid and downloadable unless overridden. */
export function makeHolderDiploma(overrides: Partial<HolderDiplomaView> = {}): HolderDiplomaView {
  return {
    id: 'AbCdEfGhIjKlMnOpQrStUv',
    candidate_code: '20250000000001',
    last_name: 'Kabamba',
    middle_name: 'Ngalula',
    first_name: 'Élodie',
    kind: 'diplome_etat',
    session: 'Session 2025',
    option: 'Scientifique',
    school: 'Institut Kasa-Vubu',
    percentage: 72.5,
    issued_at: '2025-08-01T10:00:00.000Z',
    status: 'valid',
    revocation_reason: null,
    abilities: { download: true, share: true },
    ...overrides,
  };
}
