import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';

/** The API's bounds for a revocation's reason. */
export const REASON_MIN_LENGTH = 5;
export const REASON_MAX_LENGTH = 500;

const reasonSchema = z.object({
  reason: z.string().trim().min(1, 'validation.required').min(REASON_MIN_LENGTH, 'validation.reasonMin').max(REASON_MAX_LENGTH, 'validation.reasonMax'),
});
type ReasonValues = z.infer<typeof reasonSchema>;

export interface RevokeDialogProps {
  open: boolean;
  title: string;
  /** What revoking does, read with the title. */
  description: string;
  confirmLabel: string;
  /** Sends the revocation; resolves to the server's message. */
  onRevoke: (reason: string) => Promise<string>;
  onClose: () => void;
}

/**
 * Asks for the reason of a revocation (it is written to the registry, so it cannot be taken
 * back), sends it, and shows what the server answered: its message, or why it refused.
 */
export function RevokeDialog({ open, title, description, confirmLabel, onRevoke, onClose }: RevokeDialogProps) {
  return open ? <RevokeDialogBody title={title} description={description} confirmLabel={confirmLabel} onRevoke={onRevoke} onClose={onClose} /> : null;
}

function RevokeDialogBody({ title, description, confirmLabel, onRevoke, onClose }: Omit<RevokeDialogProps, 'open'>) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const [done, setDone] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  // The form goes once sent: keep focus inside the dialog, on its way out.
  useEffect(() => {
    if (done) closeRef.current?.focus();
  }, [done]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ReasonValues>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });

  const onSubmit = handleSubmit(async ({ reason }) => {
    setFormError(null);
    try {
      setDone(await onRevoke(reason));
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, { reason: 'reason' });
      setFormError([message, ...unplaced]);
    }
  });

  const reasonError = errorText(errors.reason, { min: REASON_MIN_LENGTH, max: REASON_MAX_LENGTH });

  return (
    <Dialog open title={title} description={done ? undefined : description} onClose={isSubmitting ? () => undefined : onClose}>
      {done ? (
        <>
          <div className="alert alert--success" role="status">
            {done}
          </div>
          <div className="dialog__actions">
            <button ref={closeRef} type="button" className="button" onClick={onClose}>
              {t('common.close')}
            </button>
          </div>
        </>
      ) : (
        <form className="form" noValidate onSubmit={onSubmit}>
          {formError ? (
            <div className="alert alert--error" role="alert">
              {messageText(formError)}
            </div>
          ) : null}
          <FormField id="revoke-reason" label={t('revocation.reason')} hint={t('revocation.reasonHint', { min: REASON_MIN_LENGTH })} error={reasonError}>
            <textarea
              id="revoke-reason"
              rows={3}
              maxLength={REASON_MAX_LENGTH}
              aria-required="true"
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={describedBy('revoke-reason', { hint: true, error: !!reasonError })}
              data-autofocus
              {...register('reason')}
            />
          </FormField>
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={onClose} disabled={isSubmitting}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="button button--danger" disabled={isSubmitting} aria-busy={isSubmitting}>
              {isSubmitting ? t('revocation.sending') : confirmLabel}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
