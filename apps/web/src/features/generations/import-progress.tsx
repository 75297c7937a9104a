import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { ProgressMeter } from '@/components/progress-meter';
import { useImportTracking } from '@/features/generations/issuing-api';
import { useFlashStore } from '@/lib/flash-context';
import { keyMessage } from '@/lib/message';

/**
 * Follows an import job (`GET importations/{id}/tracking`, every second): a progress bar, then the
 * batch page with a success message once completed, or the job's translated error when it failed.
 * The job runs on the server: leaving the page does not stop it, and coming back finds it again
 * (the page's address names it; `GET /importations` lists the user's running ones).
 */
export function ImportProgress({
  importationId,
  generationId,
  title,
  onRetry,
  onAnother,
}: {
  importationId: number;
  /** The batch, when already known (the tracking names it too). */
  generationId?: number;
  title?: string | null;
  /** After a failure: back to the form, for the batch's list. */
  onRetry?: (generationId: number) => void;
  /** While it runs: the form, for another list (this import goes on). */
  onAnother?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flash = useFlashStore();
  const tracking = useImportTracking(importationId);
  const state = tracking.data;
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (state?.status !== 'completed') return;
    flash.pushMessage(keyMessage('importing.done', { count: state.rows_total }), 'success');
    void navigate(`/show/${state.generation_id || generationId || ''}`);
  }, [state?.status, state?.rows_total, state?.generation_id, generationId, flash, navigate]);

  const status = state?.status ?? 'queued';
  return (
    <section className="card stack" aria-labelledby="import-progress-title" data-testid="import-progress" data-import-status={status}>
      <h2 id="import-progress-title" ref={heading} tabIndex={-1}>
        {t('importing.title')}
      </h2>
      {title ? <p className="lead">{title}</p> : null}
      {status === 'queued' || status === 'running' ? <p className="muted">{t('importing.keepsRunning')}</p> : null}
      <ProgressMeter
        percent={state?.percent ?? 0}
        label={t('importing.progressLabel')}
        text={t('importing.progress', { done: state?.rows_done ?? 0, total: state?.rows_total ?? 0, percent: state?.percent ?? 0 })}
        testId="import-meter"
      />
      <p role="status" aria-live="polite" data-testid="import-status">
        {t(`importing.status.${status}`)}
      </p>
      {status === 'failed' ? (
        <div className="alert alert--error" role="alert" data-testid="import-error">
          <p>{state?.error ?? t('errors.generic')}</p>
          {onRetry && state ? (
            <button type="button" className="button button--secondary button--small" onClick={() => onRetry(state.generation_id)}>
              {t('importing.backToFile')}
            </button>
          ) : null}
        </div>
      ) : state?.error ? (
        <p className="muted">{t('importing.retrying', { error: state.error })}</p>
      ) : null}
      {tracking.isError ? <ErrorAlert error={tracking.error} onRetry={() => void tracking.refetch()} /> : null}
      {onAnother && status !== 'failed' && status !== 'completed' ? (
        <p>
          <button type="button" className="button button--ghost button--small" onClick={onAnother} data-testid="import-another">
            {t('importing.another')}
          </button>
        </p>
      ) : null}
    </section>
  );
}
