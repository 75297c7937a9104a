import type { i18n as I18n, ParseKeys, TFunction, TOptions } from 'i18next';

/**
 * A key t() takes (lib/i18next.d.ts): a `web` key bare, an `errors:` or `verification:` key with
 * its namespace. For keys kept as data (a flash message, a page's title): a literal given where a
 * TextKey is expected is checked against the catalogues there.
 */
export type TextKey = ParseKeys;

/**
 * A key known only at run time: an error or check code the server sent, a form rule's message.
 * The compiler cannot check it, so use this only there; a key built from a typed union
 * (`validations.states.${ItemValidationState}`) needs no help, the compiler checks every member.
 */
export function dynamicKey(key: string): TextKey {
  return key as TextKey;
}

type Translate = (key: string, options?: TOptions) => unknown;

/**
 * The text of a key held in a variable (a TextKey, checked where it was written, or a
 * dynamicKey), by a component's t() or by the instance. Given to t() itself, a key typed as any
 * of the ~2,700 makes the compiler work out the text of each of them, at every such call; this
 * is the same call, typed once.
 */
export function translate(by: TFunction | I18n, key: TextKey, options?: TOptions & { returnObjects?: false }): string;
/** A list of texts (returnObjects): what the catalogue holds there, for the caller to check. */
export function translate(by: TFunction | I18n, key: TextKey, options: TOptions & { returnObjects: true }): unknown;
export function translate(by: TFunction | I18n, key: TextKey, options?: TOptions): unknown {
  // The instance's t() is a method: called on the instance.
  return typeof by === 'function' ? (by as unknown as Translate)(key, options) : (by.t as unknown as Translate).call(by, key, options);
}
