import { zodResolver } from '@hookform/resolvers/zod';
import { CONTACT_LIMITS, NAME_MIN_LENGTH } from '@sceau/contracts';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { PhoneInput } from '@/components/phone-input';
import { applyServerErrors } from '@/components/server-errors';
import { keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { contactOf, EMPTY_PHONE } from '@/lib/contact';
import { useSendContactMessage } from '@/features/contact/contact-api';
import { contactSchema, type ContactValues } from '@/features/contact/contact-schema';
import { appConfig } from '@/lib/config';
import { useDocumentTitle } from '@/lib/use-document-title';
import './contact.css';

const EMPTY: ContactValues = { name: '', method: 'email', email: '', phone: EMPTY_PHONE, subject: '', message: '', website: '' };

/** /contact (spec sections 1 and 8): a message to the platform's team, stored and e-mailed to it. */
export function ContactPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('contactPage.title'));
  const errorText = useFieldErrorText();
  const send = useSendContactMessage();
  const [formError, setFormError] = useState<readonly Message[] | null>(null);
  const messageText = useMessageText();
  const [sent, setSent] = useState<Message | null>(null);
  // A new PhoneInput after a reset, so that it empties too.
  const [generation, setGeneration] = useState(0);
  const success = useRef<HTMLDivElement>(null);

  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    setValue,
    reset,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: EMPTY });
  const method = watch('method');
  const messageLength = watch('message').length;

  useEffect(() => {
    if (sent) success.current?.focus();
  }, [sent]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setSent(null);
    try {
      const answer = await send.mutateAsync({
        name: values.name.trim(),
        mail_or_phone: contactOf(values),
        subject: values.subject.trim(),
        message: values.message.trim(),
        ...(values.website ? { website: values.website } : {}),
      });
      reset(EMPTY);
      setGeneration((g) => g + 1);
      setSent(answer.message ? textMessage(answer.message) : keyMessage('contactPage.success'));
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, {
        name: 'name',
        mail_or_phone: values.method === 'phone' ? 'phone' : 'email',
        subject: 'subject',
        message: 'message',
      });
      setFormError([message, ...unplaced]);
    }
  });

  const nameError = errorText(errors.name, { min: NAME_MIN_LENGTH });
  const emailError = errorText(errors.email);
  const phoneServerError = errors.phone?.type === 'server' ? (errors.phone.message ?? null) : null;
  const subjectError = errorText(errors.subject, { min: CONTACT_LIMITS.subjectMin });
  const messageError = errorText(errors.message, { min: CONTACT_LIMITS.messageMin });

  return (
    <div className="container page contact-page">
      <h1>{t('contactPage.title')}</h1>
      <p className="lead">{t('contactPage.intro')}</p>

      <div className="contact-page__layout">
        <form className="form card" noValidate onSubmit={(event) => void onSubmit(event)} aria-describedby={formError ? 'contact-form-error' : undefined}>
          {sent ? (
            <div className="alert alert--success" role="status" tabIndex={-1} ref={success} data-testid="contact-success">
              {messageText(sent)}
            </div>
          ) : null}
          {formError ? (
            <div id="contact-form-error" className="alert alert--error" role="alert">
              {messageText(formError)}
            </div>
          ) : null}

          <FormField id="contact-name" label={t('contactPage.name')} error={nameError}>
            <input
              id="contact-name"
              type="text"
              autoComplete="name"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={describedBy('contact-name', { error: !!nameError })}
              aria-required="true"
              {...register('name')}
            />
          </FormField>

          <fieldset className="segmented">
            <legend className="field__label">{t('contactPage.method')}</legend>
            <div className="segmented__options">
              {(['email', 'phone'] as const).map((option) => (
                <label key={option} className="segmented__option" htmlFor={`contact-method-${option}`}>
                  <input
                    id={`contact-method-${option}`}
                    type="radio"
                    name="contact-method"
                    value={option}
                    checked={method === option}
                    onChange={() => setValue('method', option, { shouldValidate: isSubmitted })}
                  />
                  <span>{t(`contactPage.by.${option}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {method === 'email' ? (
            <FormField id="contact-email" label={t('contactPage.email')} error={emailError}>
              <input
                id="contact-email"
                type="email"
                inputMode="email"
                autoComplete="email"
                autoCapitalize="none"
                spellCheck={false}
                aria-invalid={emailError ? true : undefined}
                aria-describedby={describedBy('contact-email', { error: !!emailError })}
                aria-required="true"
                {...register('email')}
              />
            </FormField>
          ) : (
            <Controller
              control={control}
              name="phone"
              render={({ field }) => (
                <PhoneInput
                  key={generation}
                  id="contact-phone"
                  label={t('phone.label')}
                  inputRef={field.ref}
                  onChange={(value, state) => field.onChange({ value, valid: state.valid })}
                  error={phoneServerError}
                  showError={isSubmitted}
                />
              )}
            />
          )}

          <FormField id="contact-subject" label={t('contactPage.subject')} error={subjectError}>
            <input
              id="contact-subject"
              type="text"
              maxLength={CONTACT_LIMITS.subjectMax}
              aria-invalid={subjectError ? true : undefined}
              aria-describedby={describedBy('contact-subject', { error: !!subjectError })}
              aria-required="true"
              {...register('subject')}
            />
          </FormField>

          <FormField
            id="contact-message"
            label={t('contactPage.message')}
            hint={t('contactPage.messageHint', { length: messageLength, max: CONTACT_LIMITS.messageMax })}
            error={messageError}
          >
            <textarea
              id="contact-message"
              rows={7}
              maxLength={CONTACT_LIMITS.messageMax}
              aria-invalid={messageError ? true : undefined}
              aria-describedby={describedBy('contact-message', { hint: true, error: !!messageError })}
              aria-required="true"
              {...register('message')}
            />
          </FormField>

          {/* For robots only: people neither see it nor reach it with the keyboard. */}
          <div className="contact-page__trap" aria-hidden="true">
            <label htmlFor="contact-website">{t('contactPage.website')}</label>
            <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
          </div>

          <p className="muted contact-page__privacy">{t('contactPage.privacy')}</p>
          <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting}>
            {isSubmitting ? t('contactPage.submitting') : t('contactPage.submit')}
          </button>
        </form>

        <aside className="card contact-page__aside" aria-labelledby="contact-aside-title">
          <h2 id="contact-aside-title">{t('contactPage.asideTitle')}</h2>
          <p>{t('contactPage.asideText')}</p>
          <p>
            <a href={`mailto:${appConfig.contactEmail}`}>{appConfig.contactEmail}</a>
          </p>
        </aside>
      </div>
    </div>
  );
}
