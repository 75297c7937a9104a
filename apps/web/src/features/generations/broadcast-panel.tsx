import { DISTRIBUTION_LIMITS, isPublished, type BroadcastView, type GenerationView } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/dialog';
import { useBroadcast, useLatestBroadcast } from '@/features/generations/distribution-api';
import { useFlashStore } from '@/lib/flash-context';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { keyMessage, textMessage } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';

const TONES: Record<BroadcastView['status'], string> = { queued: 'badge--warning', running: 'badge--warning', completed: 'badge--info', failed: 'badge--danger' };

/**
 * The batch's broadcast to its candidates (published batches): where the latest one stands, and
 * the button that sends one when the batch's abilities say `broadcast` (the server's policy:
 * broadcast.send, scope, published and not revoked). The server answers with the spec's messages,
 * shown as toasts.
 */
export function BroadcastPanel({ batch }: { batch: GenerationView }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const flash = useFlashStore();
  const mayBroadcast = batch.abilities.broadcast;
  // The latest broadcast is shown for a published batch (display), or wherever one may be sent.
  const shown = isPublished(batch.status) || mayBroadcast;
  const latest = useLatestBroadcast(batch.id, shown);
  const send = useBroadcast(batch.id);
  const [confirming, setConfirming] = useState(false);

  const last = latest.data ?? null;
  if (!shown || (!mayBroadcast && !last)) return null;
  const running = last?.status === 'queued' || last?.status === 'running';

  return (
    <section className="card stack" aria-labelledby="batch-broadcast" data-testid="batch-broadcast">
      <h2 id="batch-broadcast">{t('distribution.broadcast.title')}</h2>
      {last ? (
        <div aria-live="polite" data-testid="broadcast-status">
          <p>
            <span className={`badge ${TONES[last.status]}`}>{t(`distribution.broadcast.status.${last.status}`)}</span>{' '}
            <span className="muted">{t('distribution.broadcast.requestedAt', { date: formatDateTime(last.created_at, locale) })}</span>
          </p>
          <p data-testid="broadcast-counts">{t('distribution.broadcast.counts', { sent: last.sent, skipped: last.skipped, failed: last.failed, total: last.total })}</p>
        </div>
      ) : (
        <p className="muted">{t('distribution.broadcast.never')}</p>
      )}
      {mayBroadcast ? (
        <div className="actions">
          <button type="button" className="button" disabled={running || send.isPending} aria-busy={send.isPending} onClick={() => setConfirming(true)}>
            {last ? t('distribution.broadcast.again') : t('distribution.broadcast.button')}
          </button>
          {running ? <span className="muted">{t('distribution.broadcast.wait')}</span> : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('distribution.broadcast.confirmTitle')}
        message={t('distribution.broadcast.confirmText', { diplomas: batch.counts.diplomas, minutes: DISTRIBUTION_LIMITS.candidateLinkMinutes })}
        confirmLabel={t('distribution.broadcast.confirm')}
        busy={send.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          send.mutate(undefined, {
            onSuccess: ({ message }) => flash.pushText(message, 'success'),
            onError: (error) =>
              flash.pushMessage(isApiError(error) ? textMessage(Object.values(error.fieldErrors)[0]?.[0] ?? error.message) : keyMessage('errors.generic'), 'error'),
            onSettled: () => setConfirming(false),
          })
        }
      />
    </section>
  );
}
