import { zodResolver } from '@hookform/resolvers/zod';
import { CANDIDATE_CODE_LENGTH, type CandidateCheckResult } from '@sceau/contracts';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describedBy, FormField, useFieldErrorText } from '@/components/form-field';
import { PhoneInput } from '@/components/phone-input';
import { applyServerErrors } from '@/components/server-errors';
import type { PhoneFieldValue } from '@/lib/contact';
import { useExamSessions } from '@/features/reference-data/reference-data-api';
import { useCandidateCheck } from '@/features/verification/candidate-check-api';
import { candidateCheckSchema, fullNameOf, type CandidateCheckValues } from '@/features/verification/candidate-check-schema';
import { isApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { keyMessage, useMessageText, type Message } from '@/lib/message';
import { useDocumentTitle } from '@/lib/use-document-title';
import './candidate-check.css';

/** The phone is optional here (spec section 5): an empty box is valid. */
const NO_PHONE: PhoneFieldValue = { value: null, valid: true };

type Recognised = Extract<CandidateCheckResult, { recognised: true }>;

function CandidateResult({ result }: { result: Recognised }) {
  const { t, i18n } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new result moves the focus to its heading.
  useEffect(() => heading.current?.focus(), [result]);
  const percentage = new Intl.NumberFormat(currentLocale(i18n), { maximumFractionDigits: 1 }).format(result.result.percentage);
  return (
    <section className="card candidate-result" aria-labelledby="candidate-result-title" data-testid="candidate-result" data-diploma-status={result.diploma_status}>
      <h2 id="candidate-result-title" ref={heading} tabIndex={-1}>
        {t('candidateCheck.result.recognised')}
      </h2>
      <dl className="facts">
        <div>
          <dt>{t('candidateCheck.result.name')}</dt>
          <dd>{result.candidate.fullname}</dd>
        </div>
        <div>
          <dt>{t('candidateCheck.result.session')}</dt>
          <dd>{result.candidate.session}</dd>
        </div>
        <div>
          <dt>{t('candidateCheck.result.outcome')}</dt>
          <dd>
            <strong>{result.result.passed ? t('candidateCheck.result.passed') : t('candidateCheck.result.notPassed')}</strong>
            {' — '}
            {t('candidateCheck.result.percentage', { value: percentage })}
          </dd>
        </div>
      </dl>
      {result.diploma_status === 'available' && result.diploma_id ? (
        <p className="candidate-result__next">
          <Link className="button" to={`/view-certificate?id=${encodeURIComponent(result.diploma_id)}`} data-testid="candidate-diploma-link">
            {t('candidateCheck.result.viewDiploma')}
          </Link>
        </p>
      ) : (
        <p className="candidate-result__next">
          {t(`candidateCheck.result.diploma.${result.diploma_status}`)}
          {result.diploma_status === 'revoked' ? (
            <>
              {' '}
              <Link to="/contact">{t('candidateCheck.result.contact')}</Link>
            </>
          ) : null}
        </p>
      )}
    </section>
  );
}

/**
 * /student-check and /mon-{product} (spec sections 3 and 5, issue 6 item 5): a candidate proves who
 * they are (names, code, birth date, session) and names two classmates of their school; the
 * answer gives their result and leads to their diploma when it is published.
 */
export function StudentCheckPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('candidateCheck.title'));
  const errorText = useFieldErrorText();
  const sessions = useExamSessions();
  const check = useCandidateCheck();
  // The form's failure, written when shown (a language chosen afterwards applies to it).
  const [formError, setFormError] = useState<Message | readonly Message[] | null>(null);
  const messageText = useMessageText();
  const [result, setResult] = useState<CandidateCheckResult | null>(null);
  const notRecognised = useRef<HTMLDivElement>(null);

  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<CandidateCheckValues>({
    resolver: zodResolver(candidateCheckSchema),
    defaultValues: { last_name: '', middle_name: '', first_name: '', code: '', phone: NO_PHONE, birth_date: '', session_id: '', classmate_1: '', classmate_2: '' },
  });

  // The current session is the likely one: chosen once the list arrives, unless the person chose.
  useEffect(() => {
    const current = sessions.data?.find((s) => s.is_current);
    if (current && getValues('session_id') === '') setValue('session_id', String(current.id));
  }, [sessions.data, getValues, setValue]);

  useEffect(() => {
    if (result && !result.recognised) notRecognised.current?.focus();
  }, [result]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setResult(null);
    try {
      const answer = await check.mutateAsync({
        fullname: fullNameOf(values),
        code: values.code.trim(),
        birthdate: values.birth_date,
        classmate1: values.classmate_1.trim(),
        classmate2: values.classmate_2.trim(),
        sessionId: Number(values.session_id),
        phone: values.phone.value ?? '',
      });
      setResult(answer);
    } catch (error) {
      const { message, unplaced } = applyServerErrors(error, setError, {
        code: 'code',
        birthdate: 'birth_date',
        session_id: 'session_id',
        fullname_collegue_1: 'classmate_1',
        fullname_collegue_2: 'classmate_2',
        phone: 'phone',
        fullname: 'last_name',
      });
      // "Connection error" alone; a refusal (429, 401…) says that the check failed and why.
      const network = isApiError(error) && error.code === 'network_error';
      const invalid = isApiError(error) && error.status === 422;
      setFormError(network || invalid ? [message, ...unplaced] : keyMessage('candidateCheck.failedBecause', { reason: message }));
    }
  });

  const text = (field: keyof CandidateCheckValues) => errorText(errors[field] as Parameters<typeof errorText>[0]);
  const phoneServerError = errors.phone?.type === 'server' ? (errors.phone.message ?? null) : null;

  const input = (field: 'last_name' | 'middle_name' | 'first_name' | 'classmate_1' | 'classmate_2', id: string, label: string, autoComplete: string, hint?: string) => {
    const error = text(field);
    return (
      <FormField id={id} label={label} error={error} hint={hint}>
        <input
          id={id}
          type="text"
          autoComplete={autoComplete}
          autoCapitalize="words"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { hint: !!hint, error: !!error })}
          aria-required="true"
          {...register(field)}
        />
      </FormField>
    );
  };

  const codeError = text('code');
  const birthError = text('birth_date');
  const sessionError = text('session_id');

  return (
    <div className="container page candidate-check">
      <h1>{t('candidateCheck.title')}</h1>
      <p className="lead">{t('candidateCheck.intro')}</p>

      <form className="form card" noValidate onSubmit={(event) => void onSubmit(event)} aria-describedby={formError ? 'candidate-form-error' : undefined}>
        {formError ? (
          <div id="candidate-form-error" className="alert alert--error" role="alert" data-testid="candidate-error">
            {messageText(formError)}
          </div>
        ) : null}

        <fieldset className="fieldset">
          <legend>{t('candidateCheck.identity')}</legend>
          <div className="form-grid">
            {input('last_name', 'candidate-last-name', t('candidateCheck.lastName'), 'family-name')}
            {input('middle_name', 'candidate-middle-name', t('candidateCheck.middleName'), 'additional-name')}
            {input('first_name', 'candidate-first-name', t('candidateCheck.firstName'), 'given-name')}
          </div>
          <div className="form-grid">
            <FormField id="candidate-code" label={t('candidateCheck.code')} hint={t('candidateCheck.codeHint', { count: CANDIDATE_CODE_LENGTH })} error={codeError}>
              <input
                id="candidate-code"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                maxLength={CANDIDATE_CODE_LENGTH}
                aria-invalid={codeError ? true : undefined}
                aria-describedby={describedBy('candidate-code', { hint: true, error: !!codeError })}
                aria-required="true"
                {...register('code')}
              />
            </FormField>
            <FormField id="candidate-birth-date" label={t('candidateCheck.birthDate')} error={birthError}>
              {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the form checks itself (no native `required`); screen readers still announce the field as required. */}
              <input
                id="candidate-birth-date"
                type="date"
                autoComplete="bday"
                max={new Date().toISOString().slice(0, 10)}
                aria-invalid={birthError ? true : undefined}
                aria-describedby={describedBy('candidate-birth-date', { error: !!birthError })}
                aria-required="true"
                {...register('birth_date')}
              />
            </FormField>
          </div>
          <Controller
            control={control}
            name="phone"
            render={({ field }) => (
              <PhoneInput
                id="candidate-phone"
                label={t('candidateCheck.phone')}
                hint={t('candidateCheck.phoneHint')}
                inputRef={field.ref}
                onChange={(value, state) => field.onChange({ value, valid: state.valid })}
                error={phoneServerError}
                showError={isSubmitted}
                optional
              />
            )}
          />
        </fieldset>

        <fieldset className="fieldset" aria-describedby="candidate-classmates-hint">
          <legend>{t('candidateCheck.exam')}</legend>
          <FormField id="candidate-session" label={t('candidateCheck.session')} error={sessionError ?? (sessions.isError ? t('candidateCheck.sessionsUnavailable') : null)}>
            <select
              id="candidate-session"
              aria-invalid={sessionError ? true : undefined}
              aria-describedby={describedBy('candidate-session', { error: !!sessionError || sessions.isError })}
              aria-required="true"
              aria-busy={sessions.isPending}
              {...register('session_id')}
            >
              <option value="">{sessions.isPending ? t('common.loading') : t('candidateCheck.chooseSession')}</option>
              {(sessions.data ?? []).map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
            </select>
          </FormField>
          <p className="field__hint" id="candidate-classmates-hint">
            {t('candidateCheck.classmatesHint')}
          </p>
          <div className="form-grid">
            {input('classmate_1', 'candidate-classmate-1', t('candidateCheck.classmate1'), 'off')}
            {input('classmate_2', 'candidate-classmate-2', t('candidateCheck.classmate2'), 'off')}
          </div>
        </fieldset>

        <p className="muted candidate-check__privacy">{t('candidateCheck.privacy')}</p>
        <button type="submit" className="button button--block" disabled={isSubmitting} aria-busy={isSubmitting} data-testid="candidate-submit">
          {isSubmitting ? t('candidateCheck.submitting') : t('candidateCheck.submit')}
        </button>
      </form>

      <div className="candidate-check__answer" aria-live="polite">
        {result?.recognised ? <CandidateResult result={result} /> : null}
        {result && !result.recognised ? (
          <div className="alert alert--error" ref={notRecognised} tabIndex={-1} data-testid="candidate-not-recognised">
            <p>
              <strong>{t('candidateCheck.notRecognised.title')}</strong>
            </p>
            <p>{t('candidateCheck.notRecognised.text')}</p>
          </div>
        ) : null}
      </div>

      <p className="verify-page__links">
        {t('candidateCheck.otherWay')} <Link to="/verification">{t('candidateCheck.toVerification')}</Link>
      </p>
    </div>
  );
}
