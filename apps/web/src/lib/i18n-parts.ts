/**
 * The web app's texts, cut by page (ADR 0097): the boot catalogue holds every section of the `web`
 * namespace that no part below claims; each part is a chunk per language, loaded with the pages of
 * the routes that name it, before the page shows. A section not listed here is in the boot
 * catalogue: a new section can never be missing, at worst every visit downloads it. A part may
 * also bring whole namespaces, or a few keys of one (`pick`, dotted paths). Read by i18n.ts and by
 * the Vite plugin that builds the chunks (vite.config.ts), so this module imports nothing.
 */
export const TEXT_PARTS = {
  home: { web: ['home'] },
  verify: { web: ['verify', 'publicDiploma'], namespaces: ['verification'], pick: { errors: ['field.diploma_id'] } },
  /** Photo, camera and offline check of /verification. */
  scan: { web: ['scan'] },
  /**
   * Forms: the `errors` namespace (field messages) and the texts of form parts (field rules, phone
   * input, password, sign-in and account pages): every page with a form (all but FORMLESS_ROUTES).
   */
  forms: { web: ['validation', 'phone', 'phoneTest', 'login', 'register', 'forgot', 'google', 'contact', 'otp', 'upload'], namespaces: ['errors'] },
  legal: { web: ['legal', 'terms', 'privacy'] },
  contact: { web: ['contactPage'] },
  candidate: { web: ['candidateCheck', 'viewCertificate', 'directAuth'] },
  /** The holder's side: my diplomas, my share links, a shared diploma (ADR 0132). */
  holder: { web: ['holder'] },
  staff: {
    web: [
      'dashboard',
      'roles',
      'permissionTest',
      'pages',
      'users',
      'signatures',
      'audit',
      'outbox',
      'generations',
      'batch',
      'revocation',
      'importing',
      'issuing',
      'certificates',
      'registry',
      'findResult',
      'checkFile',
      'launch',
      'generating',
      'validations',
      'distribution',
    ],
  },
} as const satisfies Record<string, TextPartDefinition>;

export interface TextPartDefinition {
  web: readonly string[];
  namespaces?: readonly string[];
  pick?: Readonly<Record<string, readonly string[]>>;
}

export type TextPart = keyof typeof TEXT_PARTS;

/**
 * The parts each route's page needs, by route pattern (the contracts' table); a signed-in route
 * not listed takes the back office's texts (`staff`).
 */
export const ROUTE_TEXT_PARTS: Record<string, readonly TextPart[]> = {
  '/': ['home'],
  '/contact': ['contact'],
  '/verification': ['verify', 'scan'],
  '/verify/:id': ['verify'],
  '/terms-and-conditions': ['legal'],
  '/privacy-policy': ['legal'],
  '/student-check': ['candidate'],
  '/mon-:product': ['candidate'],
  '/view-certificate': ['candidate', 'verify'],
  '/direct-auth': ['candidate'],
  '/my-diplomas': ['holder'],
  '/my-diplomas/shares': ['holder'],
  '/shared/:token': ['holder'],
  '/reset-password': [],
  '/dev/outbox': ['staff'],
};

/** Routes whose page has no form: they do without the `errors` namespace. */
export const FORMLESS_ROUTES: readonly string[] = ['/', '/verify/:id', '/terms-and-conditions', '/privacy-policy'];

/** Every part a route's page needs. */
export function routeTextParts(route: { path: string; access?: string }): TextPart[] {
  const own = ROUTE_TEXT_PARTS[route.path] ?? (route.access === 'auth' ? (['staff'] as const) : []);
  return [...own, ...(FORMLESS_ROUTES.includes(route.path) ? [] : (['forms'] as const))];
}

/** The keys at dotted `paths` of a catalogue, nested as they are. */
export function pickKeys(catalogue: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let from: unknown = catalogue;
    for (const part of parts) from = from && typeof from === 'object' ? (from as Record<string, unknown>)[part] : undefined;
    if (from === undefined) throw new Error(`no text at ${path}`);
    let into = out;
    for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as Record<string, unknown>;
    into[parts.at(-1)!] = from;
  }
  return out;
}

/**
 * The sections of `web` a catalogue module holds: a part's, or (boot) every unclaimed one. Used at
 * build time only (nothing computed at the top level, so the browser's bundle keeps none of this).
 */
export function pickSections(web: Record<string, unknown>, part: TextPart | 'boot'): Record<string, unknown> {
  if (part === 'boot') {
    const claimed = new Set<string>(Object.values(TEXT_PARTS).flatMap((definition) => definition.web));
    return Object.fromEntries(Object.entries(web).filter(([section]) => !claimed.has(section)));
  }
  const sections: readonly string[] = TEXT_PARTS[part].web;
  return Object.fromEntries(Object.entries(web).filter(([section]) => sections.includes(section)));
}
