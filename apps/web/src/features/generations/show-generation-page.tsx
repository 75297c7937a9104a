import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { generationLabel } from '@/components/generation-status';
import { useGeneration, type GenerationItemsFilter } from '@/features/generations/generations-api';
import { isApiError } from '@/lib/http';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDocumentTitle } from '@/lib/use-document-title';
import { BatchSummary } from '@/features/generations/batch-summary';
import { CandidatesSection } from '@/features/generations/candidates-section';
import { BatchHistory } from '@/features/generations/batch-history';
import { PhotoZipUpload } from '@/features/generations/photo-zip-upload';

/** A batch: what it is, where it stands, its anchoring proof, and its candidates with their diplomas. */
export function ShowGenerationPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0;

  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [filter, setFilter] = useState<Omit<GenerationItemsFilter, 'search'>>({ page: 1, institution: null, centre: null });
  // A new search starts from the first page.
  const [searchedFor, setSearchedFor] = useState(search);
  if (searchedFor !== search) {
    setSearchedFor(search);
    setFilter((f) => ({ ...f, page: 1 }));
  }
  const detail = useGeneration(id, { ...filter, search });
  const batch = detail.data?.data;
  useDocumentTitle(batch ? generationLabel(t, batch) : t('pages.showGeneration.title'));

  if (!validId || (isApiError(detail.error) && detail.error.status === 404)) return <BatchNotFound />;

  return (
    <div className="container page stack">
      <p>
        <Link to="/dashboard">{t('common.backDashboard')}</Link>
      </p>
      {batch ? (
        <>
          <BatchSummary batch={batch} />
          {batch.abilities.add_photos ? <PhotoZipUpload batch={batch} /> : null}
          <CandidatesSection
            batch={batch}
            items={batch.items}
            meta={detail.data?.meta}
            busy={detail.isFetching}
            searchText={searchText}
            onSearch={setSearchText}
            filter={filter}
            onFilter={(next) => setFilter((f) => ({ ...f, page: 1, ...next }))}
            onPage={(page) => setFilter((f) => ({ ...f, page }))}
          />
          {batch.abilities.view_history ? <BatchHistory batch={batch} /> : null}
        </>
      ) : detail.isError ? (
        <>
          <h1>{t('pages.showGeneration.title')}</h1>
          <ErrorAlert error={detail.error} onRetry={() => void detail.refetch()} />
        </>
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
    </div>
  );
}

function BatchNotFound() {
  const { t } = useTranslation();
  return (
    <section className="container page" aria-labelledby="batch-not-found" data-testid="batch-not-found">
      <div className="card coming-soon__card">
        <h1 id="batch-not-found">{t('batch.notFound.title')}</h1>
        <p className="lead">{t('batch.notFound.text')}</p>
        <Link className="button button--secondary" to="/dashboard">
          {t('common.backDashboard')}
        </Link>
      </div>
    </section>
  );
}
