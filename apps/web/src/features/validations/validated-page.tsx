import type { ValidationBatchView } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '@/lib/app-routes';
import { ErrorAlert } from '@/components/error-alert';
import { GenerationStatusBadge } from '@/components/generation-status';
import { Pagination } from '@/components/pagination';
import { ProgressMeter } from '@/components/progress-meter';
import { useGrants } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';
import { batchLabel } from '@/features/validations/validation-parts';
import { useValidations } from '@/features/validations/validations-api';

/** /validated: the batches of the user's scope in validation, where each stands, and the way in. */
export function ValidatedPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useValidations(page);
  useDocumentTitle(t('pages.validated.title'));
  return (
    <div className="container page stack">
      <header className="page-header">
        <div>
          <h1>{t('pages.validated.title')}</h1>
          <p className="lead">{t('validations.overview.intro')}</p>
        </div>
      </header>
      {list.data ? (
        list.data.data.length === 0 ? (
          <p className="card empty-state" data-testid="validations-empty">
            {t('validations.overview.empty')}
          </p>
        ) : (
          <ul className="card-grid card-grid--fill" aria-busy={list.isFetching}>
            {list.data.data.map((batch) => (
              <BatchCard key={batch.id} batch={batch} />
            ))}
          </ul>
        )
      ) : list.isError ? (
        <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
      <Pagination meta={list.data && list.data.data.length > 0 ? list.data.meta : undefined} onPage={setPage} label={t('validations.pagination')} />
    </div>
  );
}

function BatchCard({ batch }: { batch: ValidationBatchView }) {
  const { t } = useTranslation();
  const grants = useGrants();
  const label = batchLabel(batch);
  const total = batch.counts.items;
  const meter = (key: 'photos' | 'data' | 'candidates') => {
    const c = batch.counts[key];
    const percent = total > 0 ? (c.validated / total) * 100 : 0;
    return (
      <ProgressMeter
        testId={`meter-${key}-${batch.id}`}
        percent={percent}
        label={t(`validations.overview.${key}`, { name: label })}
        text={t('validations.overview.figures', { kind: t(`validations.overview.kinds.${key}`), validated: c.validated, total, pending: c.pending, rejected: c.rejected })}
      />
    );
  };
  return (
    <li className="card stack" data-testid={`validation-batch-${batch.id}`}>
      <h2 className="batch-list__title">{label}</h2>
      <p className="muted">{[batch.session.name, batch.province.name, batch.centre?.name, batch.institution?.name].filter(Boolean).join(' · ')}</p>
      <p>
        <GenerationStatusBadge status={batch.status} />
      </p>
      {meter('photos')}
      {meter('data')}
      {meter('candidates')}
      <div className="row-actions">
        {mayOpen(grants, '/validate-picture/:id') ? (
          <Link className="button button--small" to={`/validate-picture/${batch.id}`} aria-label={t('validations.overview.photosOf', { name: label })}>
            {t('validations.overview.toPhotos')}
          </Link>
        ) : null}
        {mayOpen(grants, '/validate-data/:id') ? (
          <Link className="button button--small" to={`/validate-data/${batch.id}`} aria-label={t('validations.overview.dataOf', { name: label })}>
            {t('validations.overview.toData')}
          </Link>
        ) : null}
        {batch.counts.candidates.rejected > 0 ? (
          <Link className="button button--secondary button--small" to={`/student-reject/${batch.id}`} aria-label={t('validations.overview.rejectedOf', { name: label })}>
            {t('validations.overview.toRejected')}
          </Link>
        ) : null}
        <Link className="button button--ghost button--small" to={`/show/${batch.id}`} aria-label={t('validations.overview.batchOf', { name: label })}>
          {t('validations.overview.toBatch')}
        </Link>
      </div>
    </li>
  );
}
