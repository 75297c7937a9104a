/**
 * Runtime configuration. The API server injects `<meta name="sceau-config" content='{JSON}'>`
 * into index.html (in place of the `<!--sceau-config-->` placeholder); without it (Vite dev
 * server, tests) the development defaults apply.
 */
export interface AppConfig {
  oauthClientId: string;
  oauthClientSecret: string;
  /** The national exam's short name: `/mon-{product}`. */
  product: string;
  contactEmail: string;
  googleClientId: string | null;
  appName: string;
  /** The candidate check form calls `${candidateCheckUrl}/v2/verify-candidate` with this api-token (ADR 0090). */
  candidateCheckUrl: string;
  candidateCheckToken: string;
  /** Who runs the platform (ADR 0129): named in the header, footer and home page. */
  issuer: IssuerIdentity;
  /** The footer's app and social links; a null one is not shown. */
  links: FooterLinks;
  /** The country of a phone number typed without its dial code (`0812345678`). */
  phoneCountry: string;
}

export interface IssuerIdentity {
  /** The issuer's id (its domain), as signed into its credentials. */
  id: string;
  name: string;
  nameEn: string;
  shortName: string;
  emblemUrl: string | null;
  address: string | null;
  email: string;
  phone: string | null;
  website: string | null;
}

export const FOOTER_LINK_KEYS = ['androidApp', 'iosApp', 'facebook', 'x', 'linkedin', 'youtube'] as const;
export type FooterLinks = Record<(typeof FOOTER_LINK_KEYS)[number], string | null>;

export const DEFAULT_CONFIG: AppConfig = {
  oauthClientId: 'sceau-web',
  oauthClientSecret: 'sceau-web-dev-secret',
  product: 'exetat',
  contactEmail: 'contact@sceau.example',
  googleClientId: null,
  appName: 'Sceau',
  candidateCheckUrl: '/api',
  candidateCheckToken: 'sceau-web-candidate-check',
  issuer: {
    id: 'minepst.gouv.cd',
    name: "Ministère de l'Éducation nationale et Nouvelle Citoyenneté",
    nameEn: 'Ministry of National Education and New Citizenship',
    shortName: 'EDU-NC',
    emblemUrl: null,
    address: 'Kinshasa, Gombe',
    email: 'contact@sceau.example',
    phone: null,
    website: null,
  },
  links: { androidApp: null, iosApp: null, facebook: null, x: null, linkedin: null, youtube: null },
  phoneCountry: 'CD',
};

function pickOptional(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Only http(s) addresses become links: anything else is not shown. */
function pickUrl(value: unknown): string | null {
  const text = pickOptional(value);
  return text && /^https?:\/\//i.test(text) ? text : null;
}

function readIssuer(raw: unknown): IssuerIdentity {
  if (!raw || typeof raw !== 'object') return DEFAULT_CONFIG.issuer;
  const v = raw as Record<string, unknown>;
  const d = DEFAULT_CONFIG.issuer;
  return {
    id: pickString(v.id, d.id),
    name: pickString(v.name, d.name),
    nameEn: pickString(v.nameEn, pickString(v.name, d.nameEn)),
    shortName: pickString(v.shortName, d.shortName),
    emblemUrl: pickOptional(v.emblemUrl),
    address: pickOptional(v.address),
    email: pickString(v.email, d.email),
    phone: pickOptional(v.phone),
    website: pickUrl(v.website),
  };
}

function readLinks(raw: unknown): FooterLinks {
  const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return Object.fromEntries(FOOTER_LINK_KEYS.map((key) => [key, pickUrl(v[key])])) as FooterLinks;
}

function pickString(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

export function readConfig(doc: Document = document): AppConfig {
  const content = doc.querySelector('meta[name="sceau-config"]')?.getAttribute('content');
  if (!content) return DEFAULT_CONFIG;
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(content);
    if (!parsed || typeof parsed !== 'object') return DEFAULT_CONFIG;
    raw = parsed as Record<string, unknown>;
  } catch {
    return DEFAULT_CONFIG;
  }
  return {
    oauthClientId: pickString(raw.oauthClientId, DEFAULT_CONFIG.oauthClientId),
    oauthClientSecret: pickString(raw.oauthClientSecret, DEFAULT_CONFIG.oauthClientSecret),
    product: pickString(raw.product, DEFAULT_CONFIG.product),
    contactEmail: pickString(raw.contactEmail, DEFAULT_CONFIG.contactEmail),
    googleClientId: typeof raw.googleClientId === 'string' && raw.googleClientId !== '' ? raw.googleClientId : null,
    appName: pickString(raw.appName, DEFAULT_CONFIG.appName),
    candidateCheckUrl: pickString(raw.candidateCheckUrl, DEFAULT_CONFIG.candidateCheckUrl).replace(/\/$/, ''),
    candidateCheckToken: pickString(raw.candidateCheckToken, DEFAULT_CONFIG.candidateCheckToken),
    issuer: readIssuer(raw.issuer),
    links: readLinks(raw.links),
    phoneCountry: pickString(raw.phoneCountry, DEFAULT_CONFIG.phoneCountry),
  };
}

/** Read once at start-up: the one way the app reads its configuration. */
export const appConfig: AppConfig = typeof document === 'undefined' ? DEFAULT_CONFIG : readConfig(document);

/** The issuer's name in the page's language (English when asked, else French). */
export function issuerName(language: string | undefined, issuer: IssuerIdentity = appConfig.issuer): string {
  return language?.startsWith('en') ? issuer.nameEn : issuer.name;
}
