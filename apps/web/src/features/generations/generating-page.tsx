import { isPublished } from '@sceau/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { GenerationStatusBadge, SignatureStatusBadge, generationLabel } from '@/components/generation-status';
import { ProgressMeter } from '@/components/progress-meter';
import { downloadDiplomaPdf, useGeneration } from '@/features/generations/generations-api';
import { RefusalNote } from '@/features/generations/refusal-note';
import { useApplySignature, useGenerationStatus, type GenerationProgressStatus } from '@/features/generations/issuing-api';
import { candidateName } from '@/lib/candidate-name';
import { useFlashStore } from '@/lib/flash-context';
import { isApiError } from '@/lib/http';
import { failureMessage, useMessageText, type Message } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';

const FIRST_PAGE = { page: 1, search: '', institution: null, centre: null };

/**
 * A batch's generation, live: progress polled from `GET /generations/{id}/status`, then the
 * official signature (anchoring) and publication. The work goes on on the server if the page is left.
 */
export function GeneratingPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const flash = useFlashStore();
  // After "apply the signature", follow until the batch is published even while the server has not moved yet.
  const [signing, setSigning] = useState(false);
  const status = useGenerationStatus(id, signing);
  const state = status.data;
  const done = state !== undefined && isPublished(state.status) && state.signature_status === 'finished';
  if (signing && (done || state?.status === 'failed' || state?.status === 'cancelled')) setSigning(false);

  // The batch itself for its name, a diploma to preview and what the user may do on it (its
  // abilities, the server's policy); refreshed when the status changes.
  const detail = useGeneration(id, FIRST_PAGE);
  const batch = detail.data?.data;
  const can = batch?.abilities;
  const refetchDetail = detail.refetch;
  const lastStatus = useRef<string | null>(null);
  useEffect(() => {
    if (!state) return;
    const key = `${state.status}/${state.signature_status}`;
    if (lastStatus.current !== null && lastStatus.current !== key) void refetchDetail();
    lastStatus.current = key;
  }, [state, refetchDetail]);

  const label = batch ? generationLabel(t, batch) : t('pages.generating.title');
  useDocumentTitle(label);
  const apply = useApplySignature();
  const [applyError, setApplyError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const outcome = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (done || state?.status === 'failed') outcome.current?.focus();
  }, [done, state?.status]);

  if (!(Number.isInteger(id) && id > 0) || (isApiError(status.error) && status.error.status === 404)) {
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

  function onApply() {
    setApplyError(null);
    apply.mutate(id, {
      onSuccess: (message) => {
        flash.pushText(message, 'info');
        setSigning(true);
        void status.refetch();
      },
      onError: (error) => setApplyError(failureMessage(error)),
    });
  }

  const locale = currentLocale(i18n);
  const percentFormat = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });

  return (
    <div className="container page stack">
      <p>
        <Link to={`/show/${id}`}>{t('launch.backToBatch')}</Link>
      </p>
      <header className="page-header" data-testid="generating-header">
        <div>
          <h1>{t('pages.generating.title')}</h1>
          <p className="lead">{label}</p>
          {state ? (
            <p>
              <GenerationStatusBadge status={state.status} />
              <SignatureStatusBadge status={state.signature_status} />
            </p>
          ) : null}
        </div>
      </header>

      {!state ? (
        status.isError ? (
          <ErrorAlert error={status.error} onRetry={() => void status.refetch()} />
        ) : (
          <p role="status">{t('common.loading')}</p>
        )
      ) : (
        <>
          <section
            className="card stack"
            aria-labelledby="generating-progress"
            data-testid="generating-progress"
            data-status={state.status}
            data-signature-status={state.signature_status}
          >
            <h2 id="generating-progress">{t('generating.progressTitle')}</h2>
            <ProgressMeter
              percent={state.progress.percent}
              label={t('generations.progressOf', { name: label })}
              text={t('generations.progress', { done: state.progress.done, total: state.progress.total, percent: percentFormat.format(state.progress.percent) })}
              testId="generating-meter"
            />
            <p role="status" aria-live="polite" data-testid="generating-live">
              {liveText(t, state)}
            </p>
            {state.status === 'in_progress' || (state.status === 'ready_for_signature' && state.signature_status === 'in_progress') ? (
              <p className="muted">{t('generating.continues')}</p>
            ) : null}
            {status.isError ? <ErrorAlert error={status.error} onRetry={() => void status.refetch()} /> : null}
          </section>

          {state.status === 'failed' ? (
            <section className="card stack" aria-labelledby="generating-failed" data-testid="generating-failed">
              <h2 id="generating-failed" ref={outcome} tabIndex={-1}>
                {t('generating.failedTitle')}
              </h2>
              <p className="alert alert--error" role="alert">
                <strong>{t('batch.lastError')}</strong> {state.last_error ?? t('errors.generic')}
              </p>
              {can?.launch ? (
                <p>
                  <Link className="button" to={`/otp-generation/${id}`}>
                    {t('batch.actions.relaunch')}
                  </Link>
                </p>
              ) : null}
            </section>
          ) : null}

          {state.status === 'ready_for_signature' ? (
            <section className="card stack" aria-labelledby="generating-sign" data-testid="generating-sign">
              <h2 id="generating-sign">{t('generating.signTitle')}</h2>
              <p>{t('generating.signIntro', { count: batch?.counts.diplomas ?? state.progress.total })}</p>
              <Preview id={id} items={batch?.items ?? []} mayDownload={can?.download_one ?? false} />
              {applyError ? (
                <div className="alert alert--error" role="alert" data-testid="apply-error">
                  {messageText(applyError)}
                </div>
              ) : null}
              {/* Under way (progress, display); otherwise the button only if the batch's abilities say `sign`, else why not when the server says why. */}
              {state.signature_status !== 'not_started' || signing ? (
                <p className="muted">{t('generating.signing')}</p>
              ) : can?.sign ? (
                <button type="button" className="button button--large" onClick={onApply} disabled={apply.isPending} aria-busy={apply.isPending}>
                  {apply.isPending ? t('generating.applying') : t('generating.apply')}
                </button>
              ) : (
                <RefusalNote refusal={batch?.refusals.sign} testId="sign-refused" />
              )}
            </section>
          ) : null}

          {done ? (
            <section className="card stack" aria-labelledby="generating-done" data-testid="generating-done">
              <h2 id="generating-done" ref={outcome} tabIndex={-1}>
                {t('generating.doneTitle')}
              </h2>
              <p className="alert alert--success">{t('generating.doneText', { count: batch?.counts.diplomas ?? state.progress.total })}</p>
              <p>
                <Link className="button" to={`/show/${id}`}>
                  {t('generating.toBatch')}
                </Link>
              </p>
            </section>
          ) : null}

          {state.status !== 'in_progress' && state.status !== 'ready_for_signature' && state.status !== 'failed' && !done ? (
            <section className="card stack" data-testid="generating-idle">
              <p>{t('generating.notRunning', { status: t(`generations.status.${state.status}`) })}</p>
              <div className="actions">
                {can?.launch ? (
                  <Link className="button" to={`/otp-generation/${id}`}>
                    {t('batch.actions.launch')}
                  </Link>
                ) : null}
                <Link className="button button--secondary" to={`/show/${id}`}>
                  {t('launch.backToBatch')}
                </Link>
              </div>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}

function liveText(t: TFunction, state: GenerationProgressStatus): string {
  if (state.status === 'in_progress') return t('generating.live.in_progress', { done: state.progress.done, total: state.progress.total });
  if (state.status === 'ready_for_signature') return state.signature_status === 'in_progress' ? t('generating.live.signing') : t('generating.live.ready_for_signature');
  if (isPublished(state.status)) return t('generating.live.completed');
  if (state.status === 'failed') return t('generating.live.failed');
  return t(`generations.status.${state.status}`);
}

/** The diplomas can be looked at before they are published: the batch page and one PDF. */
function Preview({ id, items, mayDownload }: { id: number; items: NonNullable<ReturnType<typeof useGeneration>['data']>['data']['items']; mayDownload: boolean }) {
  const { t } = useTranslation();
  const flash = useFlashStore();
  const [downloading, setDownloading] = useState(false);
  const sample = items.find((item) => item.diploma?.has_pdf);
  return (
    <div className="actions" data-testid="generating-preview">
      <Link className="button button--secondary" to={`/show/${id}`}>
        {t('generating.previewBatch')}
      </Link>
      {sample && mayDownload ? (
        <button
          type="button"
          className="button button--secondary"
          disabled={downloading}
          aria-busy={downloading}
          onClick={() => {
            setDownloading(true);
            downloadDiplomaPdf(sample)
              .catch((error: unknown) => flash.pushMessage(failureMessage(error), 'error'))
              .finally(() => setDownloading(false));
          }}
        >
          {t('generating.previewDiploma', { name: candidateName(sample) })}
        </button>
      ) : null}
    </div>
  );
}
