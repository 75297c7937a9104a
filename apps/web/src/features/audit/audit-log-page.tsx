import type { ResponseOf } from '@sceau/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Pagination } from '@/components/pagination';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { formatDateTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useApiQuery } from '@/lib/query';
import { useDocumentTitle } from '@/lib/use-document-title';
import { dynamicKey, translate } from '@/lib/text-keys';

export type AuditEntry = ResponseOf<typeof endpoints.audit.log>['data'][number];

export const ACTION_FAMILIES = ['user', 'auth', 'signature', 'reference'] as const;
const PAGE_SIZE = 25;

function useAuditLog(filter: { page: number; actor: string; action: string }) {
  return useApiQuery({
    queryKey: ['audit-log', filter],
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.call(endpoints.audit.log, {
        query: { page: filter.page, per_page: PAGE_SIZE, actor: filter.actor, action: filter.action },
      }),
  });
}

/** People who may appear as actors, for the filter (the first hundred, by name). */
function useActors() {
  return useApiQuery({
    queryKey: ['audit-log', 'actors'],
    queryFn: async () => (await api.call(endpoints.accounts.users, { query: { per_page: 100, sort: 'name' } })).data,
  });
}

/** Who did what, when and from where, for accounts and signatures (root only). */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const title = t('audit.title');
  useDocumentTitle(title);
  const [filter, setFilter] = useState({ page: 1, actor: '', action: '' });
  const log = useAuditLog(filter);
  const actors = useActors();
  const locale = currentLocale(i18n);
  const rows = log.data?.data ?? [];

  const actionLabel = (action: string) => translate(t, dynamicKey(`audit.actions.${action}`), { defaultValue: action });

  return (
    <div className="container page stack">
      <header>
        <h1>{title}</h1>
        <p className="muted">{t('audit.intro')}</p>
      </header>

      <section className="card toolbar" aria-label={t('audit.filters')}>
        <div className="field">
          <label className="field__label" htmlFor="audit-actor">
            {t('audit.actor')}
          </label>
          <select id="audit-actor" value={filter.actor} onChange={(event) => setFilter({ ...filter, page: 1, actor: event.target.value })}>
            <option value="">{t('audit.anyActor')}</option>
            {(actors.data ?? []).map((user) => (
              <option key={user.id} value={user.id}>
                {[user.first_name, user.name].filter(Boolean).join(' ')} {user.email ? `<${user.email}>` : (user.phone ?? '')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="audit-action">
            {t('audit.action')}
          </label>
          <select id="audit-action" value={filter.action} onChange={(event) => setFilter({ ...filter, page: 1, action: event.target.value })}>
            <option value="">{t('audit.anyAction')}</option>
            {ACTION_FAMILIES.map((family) => (
              <option key={family} value={family}>
                {t(`audit.families.${family}`)}
              </option>
            ))}
          </select>
        </div>
      </section>

      <ErrorAlert error={log.error} onRetry={() => void log.refetch()} />

      <div className="table-wrap table-wrap--cards" role="region" aria-label={title} tabIndex={0}>
        <table className="table table--cards" aria-busy={log.isFetching}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.columns.at')}</th>
              <th scope="col">{t('audit.columns.actor')}</th>
              <th scope="col">{t('audit.columns.action')}</th>
              <th scope="col">{t('audit.columns.subject')}</th>
              <th scope="col">{t('audit.columns.ip')}</th>
              <th scope="col">{t('audit.columns.details')}</th>
            </tr>
          </thead>
          <tbody>
            {log.isPending ? (
              <tr>
                <td colSpan={6}>{t('common.loading')}</td>
              </tr>
            ) : rows.length === 0 && !log.isError ? (
              <tr>
                <td colSpan={6}>{t('audit.empty')}</td>
              </tr>
            ) : (
              rows.map((entry) => (
                <tr key={entry.id} data-testid={`audit-row-${entry.id}`}>
                  <td data-label={t('audit.columns.at')}>
                    <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
                  </td>
                  <td data-label={t('audit.columns.actor')} className="table__wrap">
                    {entry.actor ?? t('audit.system')}
                  </td>
                  <th scope="row" data-label={t('audit.columns.action')}>
                    {actionLabel(entry.action)}
                    {actionLabel(entry.action) !== entry.action ? <code className="table__line muted">{entry.action}</code> : null}
                  </th>
                  <td data-label={t('audit.columns.subject')}>
                    {entry.subject_type
                      ? `${translate(t, dynamicKey(`audit.subjects.${entry.subject_type}`), { defaultValue: entry.subject_type })} ${entry.subject_id ?? ''}`
                      : '—'}
                  </td>
                  <td data-label={t('audit.columns.ip')}>{entry.ip ?? '—'}</td>
                  <td data-label={t('audit.columns.details')}>
                    {entry.details || entry.user_agent ? (
                      <details className="details">
                        <summary>{t('audit.showDetails')}</summary>
                        {entry.user_agent ? (
                          <p className="table__wrap">
                            <strong>{t('audit.userAgent')}</strong> {entry.user_agent}
                          </p>
                        ) : null}
                        {entry.details ? <pre className="details__json">{JSON.stringify(entry.details, null, 2)}</pre> : null}
                      </details>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <Pagination meta={log.data?.meta} onPage={(page) => setFilter({ ...filter, page })} label={t('audit.pagination')} />
    </div>
  );
}
