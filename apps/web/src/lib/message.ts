import type { TFunction, TOptions } from 'i18next';
import { useTranslation } from 'react-i18next';
import { translate, type TextKey } from '@/lib/text-keys';

/**
 * A message a page keeps in its state to show later (a field's error, a form's failure): a
 * catalogue key translated each time it is shown, so that a language chosen after the message
 * appeared applies to it too (a check submitted while the chosen language's texts are still
 * loading, or a person who switches language to read the error); or a text the server already
 * translated, shown as is. The flash messages follow the same rule (lib/flash.ts).
 */
type Values = TOptions & { returnObjects?: false };
export type Message = { readonly key: TextKey; readonly values?: Values } | { readonly text: string };

/** A catalogue key, translated when shown. */
export function keyMessage(key: TextKey, values?: Values): Message {
  return values ? { key, values } : { key };
}

/** A text already in the reader's language (a server's answer), shown as is. */
export function textMessage(text: string): Message {
  return { text };
}

/** The message's text in the language shown now. */
export function messageText(t: TFunction, message: Message): string {
  return 'text' in message ? message.text : translate(t, message.key, message.values);
}

/** messageText with the component's t(); nothing for no message. */
export function useMessageText(): (message: Message | null | undefined) => string | null {
  const { t } = useTranslation();
  return (message) => (message ? messageText(t, message) : null);
}
