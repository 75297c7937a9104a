import type { ValidationBatchView, ValidationItemView } from '@sceau/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { Pagination } from '@/components/pagination';
import { isApiError } from '@/lib/http';
import { translate, type TextKey } from '@/lib/text-keys';
import { useDocumentTitle } from '@/lib/use-document-title';
import { BatchNotFound, ValidationFilters, ValidationHeader, useValidationFilter } from '@/features/validations/validation-parts';
import { PageSizeSelect, ValidateAllPending } from '@/features/validations/validation-tools';
import { useValidationItems } from '@/features/validations/validations-api';

export interface ValidationListProps {
  batch: ValidationBatchView;
  items: ValidationItemView[];
  busy: boolean;
  filtered: boolean;
}

/**
 * The frame both validation pages share: the batch from the URL, its header, the filters, a page of
 * candidates (drawn by `children`), the pagination, and the not-found, error and loading states.
 */
export function ValidationPage({ aspect, titleKey, children }: { aspect: 'photos' | 'data'; titleKey: TextKey; children: (props: ValidationListProps) => ReactNode }) {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const controls = useValidationFilter();
  const list = useValidationItems(aspect, id, controls.filter);
  useDocumentTitle(translate(t, titleKey));
  if (!(Number.isInteger(id) && id > 0) || (isApiError(list.error) && list.error.status === 404)) return <BatchNotFound titleKey={titleKey} />;
  const page = list.data;
  return (
    <div className="container page stack">
      {page ? (
        <>
          <ValidationHeader batch={page.generation} titleKey={titleKey} aspect={aspect} />
          <ValidationFilters batch={page.generation} controls={controls} full />
          <ValidateAllPending aspect={aspect} batch={page.generation} filter={controls.filter} filtered={controls.filtered} />
          {children({ batch: page.generation, items: page.data, busy: list.isFetching, filtered: controls.filtered })}
          <div className="validation-foot">
            <Pagination meta={page.data.length > 0 ? page.meta : undefined} onPage={controls.setPage} label={t('validations.pagination')} />
            <PageSizeSelect value={controls.filter.perPage} onChange={controls.setPerPage} />
          </div>
        </>
      ) : list.isError ? (
        <>
          <h1>{translate(t, titleKey)}</h1>
          <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
        </>
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
    </div>
  );
}
