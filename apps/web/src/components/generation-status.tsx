import type { GenerationStatus, GenerationView, SignatureStatus } from '@sceau/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { dynamicKey, translate } from '@/lib/text-keys';

const STATUS_TONES: Record<GenerationStatus, string> = {
  created: 'badge--muted',
  pending_validation: 'badge--warning',
  ready_for_generation: '',
  in_progress: '',
  ready_for_signature: 'badge--warning',
  completed: 'badge--info',
  failed: 'badge--danger',
  cancelled: 'badge--muted',
};

const SIGNATURE_TONES: Record<SignatureStatus, string> = {
  not_started: 'badge--muted',
  in_progress: 'badge--warning',
  finished: 'badge--info',
};

/** A batch's status (spec section 3), in words; `data-status` carries the code for scripts. */
export function GenerationStatusBadge({ status }: { status: GenerationStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`badge ${STATUS_TONES[status]}`.trim()} data-status={status}>
      <span className="visually-hidden">{t('generations.statusLabel')} </span>
      {t(`generations.status.${status}`)}
    </span>
  );
}

/** A batch's signature (anchoring) status. */
export function SignatureStatusBadge({ status }: { status: SignatureStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`badge ${SIGNATURE_TONES[status]}`.trim()} data-signature-status={status}>
      <span className="visually-hidden">{t('generations.signatureLabel')} </span>
      {t(`generations.signature.${status}`)}
    </span>
  );
}

/** How far a generation has gone: a native progress bar with its figures beside it. */
export function GenerationProgress({ progress, label }: { progress: GenerationView['progress']; label: string }) {
  const { t } = useTranslation();
  const total = Math.max(progress.total, 0);
  const done = Math.min(Math.max(progress.done, 0), total);
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <span className="meter">
      <progress className="meter__bar" value={done} max={total || 1} aria-label={label} />
      <span className="meter__text">{t('generations.progress', { done, total, percent })}</span>
    </span>
  );
}

/** The batch type in words (an unknown type shows its code). */
export function generationTypeLabel(t: TFunction, type: string): string {
  return translate(t, dynamicKey(`generations.types.${type}`), { defaultValue: type });
}

/** A batch's title, or one made of its type, session and province when it has none. */
export function generationLabel(t: TFunction, batch: Pick<GenerationView, 'title' | 'type' | 'session' | 'province'>): string {
  const title = batch.title?.trim();
  if (title) return title;
  return [generationTypeLabel(t, batch.type), batch.session.name, batch.province.name].join(' · ');
}
