import type { TFunction, TOptions } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@/lib/format-bytes';
import { isApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { translate, type TextKey } from '@/lib/text-keys';

/**
 * A message a page keeps in its state to show later (a field's error, a form's failure): a
 * catalogue key translated each time it is shown, so that a language chosen after the message
 * appeared applies to it too (a check submitted while the chosen language's texts are still
 * loading, or a person who switches language to read the error); or a text the server already
 * translated, shown as is; or a size in bytes, written in the language shown ("20 Mo", "20 MB").
 * A key's values may be messages too ("La vérification a échoué : {{reason}}" with the server's
 * reason), written when shown. The flash messages follow the same rule (lib/flash.ts).
 */
type Values = TOptions & { returnObjects?: false };
export type Message = { readonly key: TextKey; readonly values?: Values } | { readonly text: string } | { readonly bytes: number };

/** A catalogue key, translated when shown. */
export function keyMessage(key: TextKey, values?: Values): Message {
  return values ? { key, values } : { key };
}

/** A text already in the reader's language (a server's answer), shown as is; none for none (a field the server did not name). */
export function textMessage(text: string): Message;
export function textMessage(text: string | undefined): Message | undefined;
export function textMessage(text: string | undefined): Message | undefined {
  return text === undefined ? undefined : { text };
}

/** A size, for a key's values: "20 Mo" or "20 MB" as the language shown writes it. */
export function bytesMessage(bytes: number): Message {
  return { bytes };
}

/**
 * A failed call's message: the server's message for the first of `fields` it named, else the call's
 * own (the server's text, or this client's by its key: a connection error follows the language),
 * else the generic one.
 */
export function failureMessage(error: unknown, ...fields: string[]): Message {
  if (!isApiError(error)) return keyMessage('errors.generic');
  for (const field of fields) {
    const message = error.fieldErrors[field]?.[0];
    if (message !== undefined) return textMessage(message);
  }
  return error.messageKey ? keyMessage(error.messageKey) : textMessage(error.message);
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && ('key' in value || 'text' in value || 'bytes' in value);
}

function isList(message: Message | readonly Message[]): message is readonly Message[] {
  return Array.isArray(message);
}

/** The message's text in the language shown now (`locale`); a list's messages one after the other. */
export function messageText(t: TFunction, message: Message | readonly Message[], locale: string): string {
  if (isList(message)) return message.map((one) => messageText(t, one, locale)).join(' ');
  if ('text' in message) return message.text;
  if ('bytes' in message) return formatBytes(message.bytes, locale);
  const values = message.values && Object.fromEntries(Object.entries(message.values).map(([name, value]) => [name, isMessage(value) ? messageText(t, value, locale) : value]));
  return translate(t, message.key, values);
}

/** messageText with the component's t() and language; nothing for no message (nor an empty list). */
export function useMessageText(): (message: Message | readonly Message[] | null | undefined) => string | null {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  return (message) => (message && (!isList(message) || message.length > 0) ? messageText(t, message, locale) : null);
}
