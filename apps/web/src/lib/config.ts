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
}

export const DEFAULT_CONFIG: AppConfig = {
  oauthClientId: 'sceau-web',
  oauthClientSecret: 'sceau-web-dev-secret',
  product: 'exetat',
  contactEmail: 'contact@sceau.example',
  googleClientId: null,
  appName: 'Sceau',
  candidateCheckUrl: '/api',
  candidateCheckToken: 'sceau-web-candidate-check',
};

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
  };
}

/** Read once at start-up: the one way the app reads its configuration. */
export const appConfig: AppConfig = typeof document === 'undefined' ? DEFAULT_CONFIG : readConfig(document);
