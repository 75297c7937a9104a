/** The query parameter carrying the page first asked for, to return to after sign-in. */
export const REDIRECT_PARAM = 'redirect';

/** Only same-site paths may be returned to after sign-in (no open redirect). */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
