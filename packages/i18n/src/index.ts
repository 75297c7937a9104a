/**
 * The one catalogue per language, shared by the web app, the API's messages, e-mails, SMS and PDFs.
 * Namespaces: `web` (the web app's texts), `errors` (the API's error messages, keyed by error
 * code, and field-level validation messages), `messages` (e-mails and SMS) and `verification`
 * (the checks, reason codes and verdicts of a diploma's verification).
 */
import enErrors from '../locales/en/errors.json' with { type: 'json' };
import enMessages from '../locales/en/messages.json' with { type: 'json' };
import enVerification from '../locales/en/verification.json' with { type: 'json' };
import enWeb from '../locales/en/web.json' with { type: 'json' };
import frErrors from '../locales/fr/errors.json' with { type: 'json' };
import frMessages from '../locales/fr/messages.json' with { type: 'json' };
import frVerification from '../locales/fr/verification.json' with { type: 'json' };
import frWeb from '../locales/fr/web.json' with { type: 'json' };

export const NAMESPACES = ['web', 'errors', 'messages', 'verification'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const resources = {
  fr: { web: frWeb, errors: frErrors, messages: frMessages, verification: frVerification },
  en: { web: enWeb, errors: enErrors, messages: enMessages, verification: enVerification },
} as const;

/** The French catalogues, the reference language: the apps type t()'s keys from them. */
export type Catalogues = (typeof resources)['fr'];
