import { DISTRIBUTION_LIMITS, type GenerationView } from '@sceau/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '@/lib/app-routes';
import { downloadBatchZip, downloadRejected, useCancelGeneration, useRevokeGeneration } from '@/features/generations/generations-api';
import { isMoving } from '@/features/generations/issuing-api';
import { RevokeDialog } from '@/features/generations/revoke-dialog';
import { sendArchiveByMail } from '@/features/generations/distribution-api';
import { ShareByMailDialog } from '@/features/generations/share-by-mail-dialog';
import { Dialog } from '@/components/dialog';
import { useFlashStore } from '@/lib/flash-context';
import { failureMessage } from '@/lib/message';
import { useGrants } from '@/lib/session-context';

type Batch = GenerationView;

/**
 * What may be done with the batch from here: each action only when the batch's abilities (what the
 * server's policy lets the signed-in user do on it now: scope, permission and state) say so; links
 * also need the target page's route guard. The pages and calls they lead to check again.
 */
export function BatchActions({ batch, label }: { batch: Batch; label: string }) {
  const { t } = useTranslation();
  const grants = useGrants();
  const can = batch.abilities;
  const revoke = useRevokeGeneration();
  const [revoking, setRevoking] = useState(false);
  // Revoked already (the API says so), or just now on this page (until the batch is read again).
  const [revokedNow, setRevoked] = useState(false);
  const revoked = revokedNow || batch.revoked_at !== null;

  const links: { to: string; key: 'validatePhotos' | 'validateData' | 'rejected' | 'relaunch' | 'launch' | 'follow' }[] = [];
  if (can.validate_photos && mayOpen(grants, '/validate-picture/:id')) links.push({ to: `/validate-picture/${batch.id}`, key: 'validatePhotos' });
  if (can.validate_data && mayOpen(grants, '/validate-data/:id')) links.push({ to: `/validate-data/${batch.id}`, key: 'validateData' });
  if (can.view_rejected && batch.counts.rejected > 0 && mayOpen(grants, '/student-reject/:id')) links.push({ to: `/student-reject/${batch.id}`, key: 'rejected' });
  // The label tells a relaunch (after a failure) from a first launch: display only.
  if (can.launch && mayOpen(grants, '/otp-generation/:id')) links.push({ to: `/otp-generation/${batch.id}`, key: batch.status === 'failed' ? 'relaunch' : 'launch' });
  // Following a generation or an anchoring under way is watching progress; signing is an ability.
  else if ((can.sign || isMoving(batch)) && mayOpen(grants, '/generating-op/:id')) links.push({ to: `/generating-op/${batch.id}`, key: 'follow' });
  const mayRevoke = can.revoke && !revokedNow;
  const mayZip = can.download_all;
  const mayCancel = can.cancel;
  const flash = useFlashStore();
  const cancel = useCancelGeneration();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [zipping, setZipping] = useState(false);
  const mayMailZip = can.share_by_email && !revokedNow;
  const [mailingZip, setMailingZip] = useState(false);
  // The rejected candidates as a file to send back to the school (the export's own rule is viewRejected).
  const mayExportRejected = can.view_rejected && batch.counts.rejected > 0;
  const [exporting, setExporting] = useState<'xlsx' | 'csv' | null>(null);
  function exportRejected(format: 'xlsx' | 'csv') {
    setExporting(format);
    downloadRejected(batch.id, format)
      .catch((error: unknown) => flash.pushMessage(failureMessage(error), 'error'))
      .finally(() => setExporting(null));
  }

  if (links.length === 0 && !mayRevoke && !revoked && !mayZip && !mayCancel && !mayMailZip && !mayExportRejected) return null;
  return (
    <div className="actions" data-testid="batch-actions">
      {revoked ? <span className="badge badge--danger">{t('batch.revokedBadge')}</span> : null}
      {links.map((link) => (
        <Link key={link.key} className="button button--secondary" to={link.to}>
          {t(`batch.actions.${link.key}`)}
        </Link>
      ))}
      {mayExportRejected
        ? (['xlsx', 'csv'] as const).map((format) => (
            <button
              key={format}
              type="button"
              className="button button--secondary"
              data-testid={`export-rejected-${format}`}
              disabled={exporting !== null}
              aria-busy={exporting === format}
              onClick={() => exportRejected(format)}
            >
              {t(format === 'xlsx' ? 'batch.actions.rejectedXlsx' : 'batch.actions.rejectedCsv')}
            </button>
          ))
        : null}
      {mayZip ? (
        <button
          type="button"
          className="button button--secondary"
          disabled={zipping}
          aria-busy={zipping}
          onClick={() => {
            setZipping(true);
            downloadBatchZip(batch.id)
              .catch((error: unknown) => flash.pushMessage(failureMessage(error), 'error'))
              .finally(() => setZipping(false));
          }}
        >
          {zipping ? t('batch.actions.zipping') : t('batch.actions.zip')}
        </button>
      ) : null}
      {mayMailZip ? (
        <button type="button" className="button button--secondary" onClick={() => setMailingZip(true)}>
          {t('distribution.mail.zipButton')}
        </button>
      ) : null}
      {mayCancel ? (
        <button type="button" className="button button--danger" onClick={() => setConfirmCancel(true)}>
          {t('batch.actions.cancel')}
        </button>
      ) : null}
      {mayRevoke ? (
        <button type="button" className="button button--danger" onClick={() => setRevoking(true)}>
          {t('batch.actions.revoke')}
        </button>
      ) : null}
      <Dialog open={confirmCancel} title={t('batch.cancelTitle')} description={t('batch.cancelText', { name: label })} onClose={() => setConfirmCancel(false)}>
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirmCancel(false)}>
            {t('batch.cancelKeep')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={cancel.isPending}
            onClick={() => {
              cancel.mutate(batch.id, {
                onSuccess: (message) => {
                  flash.pushText(message, 'success');
                  setConfirmCancel(false);
                },
                onError: (error) => flash.pushMessage(failureMessage(error), 'error'),
              });
            }}
          >
            {t('batch.cancelConfirm')}
          </button>
        </div>
      </Dialog>
      <ShareByMailDialog
        open={mailingZip}
        title={t('distribution.mail.zipTitle')}
        description={t('distribution.mail.zipText', {
          name: label,
          diplomas: batch.counts.diplomas,
          size: DISTRIBUTION_LIMITS.zipAttachmentMaxBytes / (1024 * 1024),
          days: DISTRIBUTION_LIMITS.zipLinkDays,
        })}
        onSend={(email) => sendArchiveByMail(batch.id, email)}
        onSent={(message) => {
          flash.pushText(message, 'success');
          setMailingZip(false);
        }}
        onClose={() => setMailingZip(false)}
      />
      <RevokeDialog
        open={revoking}
        title={t('revocation.batchTitle')}
        description={t('revocation.batchText', { name: label, count: batch.counts.diplomas })}
        confirmLabel={t('revocation.batchConfirm')}
        onRevoke={async (reason) => {
          const message = await revoke.mutateAsync({ generationId: batch.id, reason });
          setRevoked(true);
          return message;
        }}
        onClose={() => setRevoking(false)}
      />
    </div>
  );
}
