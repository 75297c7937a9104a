import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Dialog } from '@/components/dialog';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { applyServerErrors } from '@/components/server-errors';
import { useMessageText, type Message } from '@/lib/message';

const emailSchema = z.object({
  email: z.string().trim().min(1, 'validation.required').pipe(z.email('validation.email')),
});
type EmailValues = z.infer<typeof emailSchema>;

export interface ShareByMailDialogProps {
  open: boolean;
  title: string;
  /** What will be sent, read with the title. */
  description: string;
  /** Sends to the address; resolves to the server's message. */
  onSend: (email: string) => Promise<string>;
  /** After a successful send, with the server's message. */
  onSent: (message: string) => void;
  onClose: () => void;
}

/** Asks for the recipient's e-mail (checked here and by the server), then sends. */
export function ShareByMailDialog({ open, ...props }: ShareByMailDialogProps) {
  return open ? <ShareByMailBody {...props} /> : null;
}

function ShareByMailBody({ title, description, onSend, onSent, onClose }: Omit<ShareByMailDialogProps, 'open'>) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EmailValues>({ resolver: zodResolver(emailSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      onSent(await onSend(email));
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, { email: 'email', mail: 'email' });
      // A refusal of the e-mail itself shows under the field; anything else above the form.
      if (unplaced.length || !errorsOnEmail(error)) setFormError([message, ...unplaced]);
    }
  });

  const emailError = errorText(errors.email);

  return (
    <Dialog open title={title} description={description} onClose={isSubmitting ? () => undefined : onClose}>
      <form className="form" noValidate onSubmit={onSubmit}>
        {formError ? (
          <div className="alert alert--error" role="alert">
            {messageText(formError)}
          </div>
        ) : null}
        <FormField id="share-email" label={t('distribution.mail.email')} hint={t('distribution.mail.emailHint')} error={emailError}>
          <input
            id="share-email"
            type="email"
            inputMode="email"
            autoComplete="email"
            aria-required="true"
            aria-invalid={emailError ? true : undefined}
            aria-describedby={describedBy('share-email', { hint: true, error: !!emailError })}
            data-autofocus
            {...register('email')}
          />
        </FormField>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={isSubmitting}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button" disabled={isSubmitting} aria-busy={isSubmitting}>
            {isSubmitting ? t('distribution.mail.sending') : t('distribution.mail.send')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function errorsOnEmail(error: unknown): boolean {
  const fields = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
  return Object.keys(fields).length > 0 && Object.keys(fields).every((field) => field === 'email' || field === 'mail');
}
