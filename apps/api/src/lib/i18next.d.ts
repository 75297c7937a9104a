import type { Catalogues } from '@sceau/i18n';

/**
 * t() accepts only keys of the French catalogues (the reference language). Of the web app's
 * namespace, only what the API says itself: the whole of it makes the key types too deep to compute.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'errors';
    resources: Omit<Catalogues, 'web'> & { web: Pick<Catalogues['web'], 'contactPage'> };
  }
}
