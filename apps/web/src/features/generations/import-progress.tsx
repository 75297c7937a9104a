import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { ProgressMeter } from '@/components/progress-meter';
import { useImportTracking } from '@/features/generations/issuing-api';
import { useFlashStore } from '@/lib/flash-context';

/**
 * Follows an import job (`GET importations/{id}/tracking`, every second): a progress bar, then the
 * batch page with a success message once completed, or the job's translated error when it failed.
 */
export function ImportProgress({ importationId, generationId, onRetry }: { importationId: number; generationId: number; onRetry?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flash = useFlashStore();
  const tracking = useImportTracking(importationId);
  const state = tracking.data;
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (state?.status !== 'completed') return;
    flash.pushText(t('importing.done', { count: state.rows_total }), 'success');
    void navigate(`/show/${state.generation_id || generationId}`);
  }, [state?.status, state?.rows_total, state?.generation_id, generationId, flash, navigate, t]);

  const status = state?.status ?? 'queued';
  return (
    <section className="card stack" aria-labelledby="import-progress-title" data-testid="import-progress" data-import-status={status}>
      <h2 id="import-progress-title" ref={heading} tabIndex={-1}>
        {t('importing.title')}
      </h2>
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
          {onRetry ? (
            <button type="button" className="button button--secondary button--small" onClick={onRetry}>
              {t('importing.backToFile')}
            </button>
          ) : null}
        </div>
      ) : state?.error ? (
        <p className="muted">{t('importing.retrying', { error: state.error })}</p>
      ) : null}
      {tracking.isError ? <ErrorAlert error={tracking.error} onRetry={() => void tracking.refetch()} /> : null}
    </section>
  );
}
