import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { GenerationProgress, GenerationStatusBadge, SignatureStatusBadge, generationLabel, generationTypeLabel } from '@/components/generation-status';
import { Pagination } from '@/components/pagination';
import { Can } from '@/components/permission-gate';
import { useMyGenerations, useMyGenerationsSummary, type MyGenerationsFilter } from '@/features/generations/generations-api';
import { useMyImportations } from '@/features/generations/importations-api';
import { useExamSessions } from '@/features/reference-data/reference-data-api';
import { formatDateTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useDebouncedValue } from '@/lib/use-debounced-value';

function Counters() {
  const { t, i18n } = useTranslation();
  const summary = useMyGenerationsSummary();
  if (!summary.data) return null;
  const number = new Intl.NumberFormat(currentLocale(i18n));
  const { batches, published, diplomas, partial } = summary.data;
  const items = [
    { key: 'batches', value: number.format(batches) },
    { key: 'published', value: number.format(published) + (partial ? '+' : '') },
    { key: 'diplomas', value: number.format(diplomas) + (partial ? '+' : '') },
  ] as const;
  return (
    <ul className="counters" aria-label={t('dashboard.batches.counters')}>
      {items.map((item) => (
        <li key={item.key} className="counter" data-testid={`counter-${item.key}`}>
          <span className="counter__value">{item.value}</span> <span className="counter__label">{t(`dashboard.batches.counter.${item.key}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/** "My batches": what the signed-in user created, searchable and filtered by session. */
export function MyBatches() {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [filter, setFilter] = useState<Omit<MyGenerationsFilter, 'search'>>({ page: 1, session: null });
  // A new search starts from the first page.
  const [searchedFor, setSearchedFor] = useState(search);
  if (searchedFor !== search) {
    setSearchedFor(search);
    setFilter((f) => ({ ...f, page: 1 }));
  }
  const batches = useMyGenerations({ ...filter, search });
  // A batch whose list is being imported leads back to the import's progress.
  const importing = useMyImportations(true);
  const importOf = (batchId: number) => importing.data?.find((i) => i.generation_id === batchId);
  const sessions = useExamSessions();
  const rows = batches.data?.data ?? [];
  const filtered = search !== '' || filter.session !== null;
  const title = t('dashboard.publishedTitle');

  return (
    <section className="stack" aria-labelledby="dashboard-published" data-testid="my-batches">
      <div className="page-header">
        <h2 id="dashboard-published" className="section__title section__title--left">
          {title}
        </h2>
        <Can permission="generation.create">
          <Link className="button" to="/certificates">
            {t('dashboard.batches.start')}
          </Link>
        </Can>
      </div>

      <Counters />

      <div className="card toolbar" role="search" aria-label={t('dashboard.batches.filters')}>
        <div className="field">
          <label className="field__label" htmlFor="batches-search">
            {t('dashboard.batches.search')}
          </label>
          <input
            id="batches-search"
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            placeholder={t('dashboard.batches.searchPlaceholder')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="batches-session">
            {t('dashboard.batches.session')}
          </label>
          <select id="batches-session" value={filter.session ?? ''} onChange={(event) => setFilter({ page: 1, session: event.target.value ? Number(event.target.value) : null })}>
            <option value="">{t('dashboard.batches.anySession')}</option>
            {(sessions.data ?? []).map((session) => (
              <option key={session.id} value={session.id}>
                {session.name}
              </option>
            ))}
          </select>
        </div>
      </div>

      <ErrorAlert error={batches.error} onRetry={() => void batches.refetch()} />

      {batches.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : batches.isError ? null : rows.length === 0 ? (
        <div className="card empty-state" data-testid="batches-empty">
          <p>{filtered ? t('dashboard.batches.noMatch') : t('dashboard.batches.empty')}</p>
          {filtered ? null : (
            <Can permission="generation.create">
              <Link className="button" to="/certificates">
                {t('dashboard.batches.start')}
              </Link>
            </Can>
          )}
        </div>
      ) : (
        <div className="table-wrap table-wrap--cards" role="region" aria-label={title} tabIndex={0}>
          <table className="table table--cards" aria-busy={batches.isFetching}>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('dashboard.batches.columns.batch')}</th>
                <th scope="col">{t('dashboard.batches.columns.status')}</th>
                <th scope="col">{t('dashboard.batches.columns.progress')}</th>
                <th scope="col">{t('dashboard.batches.columns.candidates')}</th>
                <th scope="col">{t('dashboard.batches.columns.diplomas')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((batch) => {
                const label = generationLabel(t, batch);
                return (
                  <tr key={batch.id} data-testid={`batch-row-${batch.id}`}>
                    <th scope="row" data-label={t('dashboard.batches.columns.batch')}>
                      <Link className="batch-list__title" to={`/show/${batch.id}`}>
                        {label}
                      </Link>
                      {batch.title?.trim() ? (
                        <span className="cell-line muted">{[generationTypeLabel(t, batch.type), batch.session.name, batch.province.name].join(' · ')}</span>
                      ) : null}
                      <span className="table__line muted">
                        <time dateTime={batch.created_at}>{formatDateTime(batch.created_at, locale)}</time>
                      </span>
                    </th>
                    <td data-label={t('dashboard.batches.columns.status')}>
                      <GenerationStatusBadge status={batch.status} />
                      <SignatureStatusBadge status={batch.signature_status} />
                    </td>
                    <td data-label={t('dashboard.batches.columns.progress')}>
                      {batch.status === 'in_progress' ? (
                        <GenerationProgress progress={batch.progress} label={t('generations.progressOf', { name: label })} />
                      ) : importOf(batch.id) ? (
                        <Link to={`/check-file/${batch.template_id}?importation=${importOf(batch.id)!.id}`} data-testid={`batch-import-${batch.id}`}>
                          {t('dashboard.batches.followImport', { percent: importOf(batch.id)!.percent })}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td data-label={t('dashboard.batches.columns.candidates')}>
                      {batch.counts.items}
                      {batch.counts.rejected > 0 ? <span className="table__line muted">{t('generations.rejectedCount', { count: batch.counts.rejected })}</span> : null}
                    </td>
                    <td data-label={t('dashboard.batches.columns.diplomas')}>{batch.counts.diplomas}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <Pagination meta={rows.length > 0 ? batches.data?.meta : undefined} onPage={(page) => setFilter({ ...filter, page })} label={t('dashboard.batches.pagination')} />
    </section>
  );
}
