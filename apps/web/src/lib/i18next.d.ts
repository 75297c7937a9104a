import type { Catalogues } from '@sceau/i18n';

/**
 * The dotted paths of a catalogue to its texts (`'verify.fields.kind'`), arrays of texts kept
 * whole (read with returnObjects).
 */
type TextPaths<T> = {
  [K in keyof T & string]: T[K] extends string | readonly unknown[] ? K : `${K}.${TextPaths<T[K]>}`;
}[keyof T & string];
type TextAt<T, P extends string> = P extends keyof T ? T[P] : P extends `${infer K extends keyof T & string}.${infer R}` ? TextAt<T[K], R> : never;

/**
 * A catalogue as one level of dotted keys. i18next's own key types walk the nested catalogues
 * again for each namespace and hook: over the ~1,300 texts of `web` that is "excessively deep"
 * for the compiler, while these flat maps are computed once. Only the types say `keySeparator:
 * false`: at run time keys are still split at their dots, and name the same text.
 */
type Flat<T> = { [P in TextPaths<T>]: TextAt<T, P> };

/**
 * t() accepts only keys of the French catalogues (the reference language; the catalogue tests keep
 * English the same). Every t() of the app reads `web` keys bare and the instance's other
 * namespaces (lib/i18n.ts) with their prefix, `errors:…`, `verification:…`: hence the three as
 * default namespaces, `web` first as at run time. A JSON module types every text as `string`,
 * without its `{{variables}}`: parsing them would find none and only cost time.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: readonly ['web', 'errors', 'verification'];
    keySeparator: false;
    parseInterpolation: false;
    strictInterpolationChecks: false;
    resources: { web: Flat<Catalogues['web']>; errors: Flat<Catalogues['errors']>; verification: Flat<Catalogues['verification']> };
  }
}
