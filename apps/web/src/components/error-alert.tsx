import { useTranslation } from 'react-i18next';
import { failureMessage, useMessageText } from '@/lib/message';

/** A failed call, in words: the server's translated message, this client's in the language shown, else a generic one. */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  if (!error) return null;
  const message = messageText(failureMessage(error));
  return (
    <div className="alert alert--error" role="alert">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" className="button button--secondary button--small" onClick={onRetry}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}
