/** The English catalogues the web app uses (not `messages`, the server's e-mails and SMS), loaded on demand by i18n.ts. */
import errors from '@sceau/i18n/locales/en/errors.json' with { type: 'json' };
import verification from '@sceau/i18n/locales/en/verification.json' with { type: 'json' };
import web from '@sceau/i18n/locales/en/web.json' with { type: 'json' };

export default { web, errors, verification };
