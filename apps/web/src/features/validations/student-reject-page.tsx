import type { ValidationItemView } from '@sceau/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { Pagination } from '@/components/pagination';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';
import {
  BatchNotFound,
  ReadyNotice,
  ValidationFilters,
  ValidationHeader,
  ValidationStateBadge,
  candidateName,
  useChangeOutcome,
  useValidationFilter,
} from '@/features/validations/validation-parts';
import { useValidationChange, useValidationItems } from '@/features/validations/validations-api';

/** /student-reject/{id}: the batch's rejected candidates, why, by whom and when; reopen one side. */
export function StudentRejectPage() {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const id = Number(useParams().id);
  const controls = useValidationFilter();
  const list = useValidationItems('rejected', id, controls.filter);
  const change = useValidationChange();
  const outcome = useChangeOutcome();
  useDocumentTitle(t('pages.studentReject.title'));
  if (!(Number.isInteger(id) && id > 0) || (isApiError(list.error) && list.error.status === 404)) return <BatchNotFound titleKey="pages.studentReject.title" />;
  const page = list.data;
  // What the user may do on the batch comes with it (the server's policy).
  const abilities = page?.generation.abilities;

  /** The rejected sides of a candidate that the batch's abilities let the user reopen (validating them again). */
  function reopenSides(item: ValidationItemView): ('photo' | 'data')[] {
    const sides: ('photo' | 'data')[] = [];
    if (item.photo_status === 'rejected' && abilities?.validate_photos) sides.push('photo');
    if (item.data_status === 'rejected' && abilities?.validate_data) sides.push('data');
    return sides;
  }

  return (
    <div className="container page stack">
      {page ? (
        <>
          <ValidationHeader batch={page.generation} titleKey="pages.studentReject.title" aspect={null} />
          <ReadyNotice generationId={outcome.ready} />
          <ValidationFilters batch={page.generation} controls={controls} full={false} />
          {page.data.length === 0 ? (
            <p className="card empty-state" data-testid="validation-empty">
              {controls.filtered ? t('validations.noMatch') : t('validations.rejected.empty')}
            </p>
          ) : (
            <div className="table-wrap table-wrap--cards" role="region" aria-label={t('validations.rejected.caption')} tabIndex={0}>
              <table className="table table--cards" aria-busy={list.isFetching} data-testid="rejected-table">
                <caption className="visually-hidden">{t('validations.rejected.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('validations.columns.candidate')}</th>
                    <th scope="col">{t('validations.columns.school')}</th>
                    <th scope="col">{t('validations.columns.reason')}</th>
                    <th scope="col">{t('validations.columns.by')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('validations.columns.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((item) => {
                    const name = candidateName(item);
                    return (
                      <tr key={item.id} data-testid={`rejected-row-${item.id}`}>
                        <th scope="row" data-label={t('validations.columns.candidate')}>
                          <strong className="cell-line">{name}</strong>
                          <span className="table__line muted">
                            {t('validations.code')} <code>{item.candidate_code}</code>
                          </span>
                          <span className="badge-stack">
                            <ValidationStateBadge kind="photo" state={item.photo_status} />
                            <ValidationStateBadge kind="data" state={item.data_status} />
                          </span>
                        </th>
                        <td className="cell-wide" data-label={t('validations.columns.school')}>
                          <span className="cell-line">{item.institution.name}</span>
                          <span className="cell-line muted">{item.centre.name}</span>
                        </td>
                        <td data-label={t('validations.columns.reason')}>{item.rejection_reason ?? '—'}</td>
                        <td data-label={t('validations.columns.by')}>
                          <span className="cell-line">{item.rejected_by?.name ?? '—'}</span>
                          {item.rejected_at ? (
                            <time className="cell-line muted" dateTime={item.rejected_at}>
                              {formatDateTime(item.rejected_at, locale)}
                            </time>
                          ) : null}
                        </td>
                        <td className="table__actions">
                          <div className="row-actions">
                            {reopenSides(item).map((side) => (
                              <button
                                key={side}
                                type="button"
                                className="button button--secondary button--small"
                                disabled={change.isPending}
                                onClick={() => void change.mutateAsync({ kind: 'reopen', side, item: item.id }).then(outcome.handle, outcome.fail)}
                                aria-label={t(`validations.reopen.${side}Of`, { name })}
                              >
                                {t(`validations.reopen.${side}`)}
                              </button>
                            ))}
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <Pagination meta={page.data.length > 0 ? page.meta : undefined} onPage={controls.setPage} label={t('validations.pagination')} />
        </>
      ) : list.isError ? (
        <>
          <h1>{t('pages.studentReject.title')}</h1>
          <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
        </>
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
    </div>
  );
}
