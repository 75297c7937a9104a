import type { OutboxMessage } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { useApiQuery } from '@/lib/query';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDocumentTitle } from '@/lib/use-document-title';

export type { OutboxMessage };

const LIMIT = 50;

/**
 * What the platform would have sent by e-mail and SMS, on a machine without real providers (the
 * API has this list outside production only). Codes can be read here during development.
 */
export function OutboxPage() {
  const { t, i18n } = useTranslation();
  const title = t('outbox.title');
  useDocumentTitle(title);
  const [toText, setToText] = useState('');
  const to = useDebouncedValue(toText.trim(), 300);
  const messages = useApiQuery({
    queryKey: ['dev', 'outbox', to],
    queryFn: async () => (await api.call(endpoints.messaging.outbox, { query: { to, limit: LIMIT } })).data,
    retry: false,
    staleTime: 0,
  });
  const unavailable = isApiError(messages.error) && messages.error.status === 404;
  const locale = currentLocale(i18n);

  return (
    <div className="container page stack">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
          <p className="muted">{t('outbox.intro')}</p>
        </div>
      </header>

      {unavailable ? (
        <div className="alert alert--info" role="status">
          {t('outbox.unavailable')}
        </div>
      ) : (
        <>
          <section className="card toolbar" aria-label={t('outbox.filters')}>
            <div className="field">
              <label className="field__label" htmlFor="outbox-to">
                {t('outbox.to')}
              </label>
              <input id="outbox-to" type="search" value={toText} onChange={(event) => setToText(event.target.value)} placeholder={t('outbox.toPlaceholder')} />
            </div>
            <button type="button" className="button button--secondary" onClick={() => void messages.refetch()} disabled={messages.isFetching} aria-busy={messages.isFetching}>
              {t('common.refresh')}
            </button>
          </section>
          <ErrorAlert error={messages.error} onRetry={() => void messages.refetch()} />
          {messages.isPending ? <p role="status">{t('common.loading')}</p> : null}
          {messages.data && messages.data.length === 0 ? <p className="card muted">{t('outbox.empty')}</p> : null}
          <ul className="outbox" aria-live="polite">
            {(messages.data ?? []).map((message) => (
              <li key={message.id} className="card outbox__message" data-testid={`outbox-${message.id}`}>
                <p className="outbox__meta">
                  <span className={message.channel === 'sms' ? 'badge' : 'badge badge--info'}>{t(`outbox.channels.${message.channel}`)}</span>{' '}
                  <strong className="outbox__to">{message.to}</strong>{' '}
                  <time className="muted" dateTime={message.created_at}>
                    {formatDateTime(message.created_at, locale)}
                  </time>
                </p>
                {message.subject ? <h2 className="outbox__subject">{message.subject}</h2> : null}
                <pre className="outbox__text">{message.text}</pre>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
