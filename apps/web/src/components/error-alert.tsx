import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/http';

/** A failed call, in words: the server's translated message, else a generic one. */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (!error) return null;
  const message = isApiError(error) ? error.message : t('errors.generic');
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
