import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';
import { formatBytes } from '@/lib/format-bytes';
import { isApiError, type ApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';
import { DOCUMENT_ACCEPT, isAcceptableLink, MAX_DOCUMENT_BYTES, useVerifyDocument } from '@/features/verification/verification-api';
import { VerificationResult } from '@/features/verification/verification-result';

type Mode = 'link' | 'document';
type Errors = Partial<Record<Mode, string>>;

const LINK_ID = 'verify-link';
const DOCUMENT_ID = 'verify-document';

/** Spec section 8: the connection error as such, any other failure as "Verification failed". */
function failureText(error: ApiError | Error, t: (key: string) => string): string | null {
  if (!isApiError(error)) return t('verify.failed');
  if (error.code === 'network_error') return error.message;
  if (error.status === 422) return null;
  if (error.status === 429) return `${t('verify.failed')} — ${error.message}`;
  return t('verify.failed');
}

/** /verification: by the diploma's link (or number, or offline QR text), or by its document. */
export function VerificationPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('verify.pageTitle'));
  const verify = useVerifyDocument();
  const [mode, setMode] = useState<Mode>('link');
  const [link, setLink] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [dragging, setDragging] = useState(false);
  const linkInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const resultTitle = useRef<HTMLHeadingElement>(null);
  const maxSize = formatBytes(MAX_DOCUMENT_BYTES, currentLocale(i18n));

  // Once a verdict arrives, bring it into view (below the form on a phone).
  useEffect(() => {
    if (verify.isSuccess) resultTitle.current?.focus();
  }, [verify.isSuccess, verify.data]);

  function refuseFile(message: string) {
    setFile(null);
    setErrors((current) => ({ ...current, document: message }));
    if (fileInput.current) fileInput.current.value = '';
  }

  function choose(next: File | undefined) {
    if (!next) return;
    if (next.size > MAX_DOCUMENT_BYTES) return refuseFile(t('errors:field.file_too_large', { size: MAX_DOCUMENT_BYTES / 1024 / 1024 }));
    setErrors(({ document: _dropped, ...rest }) => rest);
    setFile(next);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (mode !== 'document') setMode('document');
    choose(event.dataTransfer.files[0]);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (verify.isPending) return;
    if (mode === 'link') {
      const problem = !link.trim() ? t('errors:field.required') : !isAcceptableLink(link) ? t('errors:field.invalid_url') : null;
      setErrors(problem ? { link: problem } : {});
      if (problem) return linkInput.current?.focus();
    } else {
      const problem = !file ? t('errors:field.file_required') : file.size > MAX_DOCUMENT_BYTES ? t('errors:field.file_too_large', { size: MAX_DOCUMENT_BYTES / 1024 / 1024 }) : null;
      setErrors(problem ? { document: problem } : {});
      if (problem) return fileInput.current?.focus();
    }
    try {
      await verify.mutateAsync(mode === 'link' ? { kind: 'link', link } : { kind: 'document', file: file! });
    } catch (error) {
      if (!isApiError(error) || error.status !== 422) return;
      const fields = error.fieldErrors;
      const message = (mode === 'link' ? (fields.cert_url ?? fields.cert_document) : (fields.cert_document ?? fields.cert_url))?.[0] ?? error.message;
      setErrors({ [mode]: message });
      (mode === 'link' ? linkInput : fileInput).current?.focus();
    }
  }

  function switchMode(next: Mode) {
    setMode(next);
    setErrors({});
    verify.reset();
  }

  const failure = verify.error ? failureText(verify.error, t) : null;
  const showResult = verify.isPending || !!verify.data;

  return (
    <div className="container page verify-page">
      <h1>{t('verify.pageTitle')}</h1>
      <p className="verify-page__intro">{t('verify.intro')}</p>

      <form className="card form verify-form" noValidate aria-labelledby="verify-form-title" onSubmit={(event) => void onSubmit(event)} data-testid="verification-form">
        <h2 id="verify-form-title" className="visually-hidden">
          {t('verify.formTitle')}
        </h2>
        <fieldset className="segmented">
          <legend className="field__label">{t('verify.mode.label')}</legend>
          <div className="segmented__options">
            {(['link', 'document'] as const).map((option) => (
              <label key={option} className="segmented__option" htmlFor={`verify-mode-${option}`}>
                <input id={`verify-mode-${option}`} type="radio" name="verify-mode" value={option} checked={mode === option} onChange={() => switchMode(option)} />
                <span>{t(`verify.mode.${option}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {mode === 'link' ? (
          <FormField id={LINK_ID} label={t('verify.link.label')} hint={t('verify.link.hint')} error={errors.link ?? null}>
            <input
              id={LINK_ID}
              ref={linkInput}
              name="cert_url"
              type="text"
              inputMode="url"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              placeholder={t('verify.link.placeholder')}
              value={link}
              onChange={(event) => setLink(event.target.value)}
              aria-invalid={errors.link ? true : undefined}
              aria-describedby={describedBy(LINK_ID, { hint: true, error: !!errors.link })}
            />
          </FormField>
        ) : (
          <FormField id={DOCUMENT_ID} label={t('verify.document.label')} hint={t('verify.document.hint', { size: maxSize })} error={errors.document ?? null}>
            <div
              className={dragging ? 'dropzone verify-dropzone dropzone--active' : 'dropzone verify-dropzone'}
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid="verification-dropzone"
            >
              <input
                id={DOCUMENT_ID}
                ref={fileInput}
                name="cert_document"
                type="file"
                accept={DOCUMENT_ACCEPT}
                aria-invalid={errors.document ? true : undefined}
                aria-describedby={describedBy(DOCUMENT_ID, { hint: true, error: !!errors.document })}
                onChange={(event) => choose(event.target.files?.[0])}
              />
              <span className="dropzone__text" aria-hidden="true">
                {t('verify.document.drop')}
              </span>
              {file ? (
                <p className="verify-file" data-testid="verification-file">
                  <span>{t('verify.document.chosen', { name: file.name, size: formatBytes(file.size, currentLocale(i18n)) })}</span>
                </p>
              ) : null}
            </div>
          </FormField>
        )}

        {failure ? (
          <div className="alert alert--error" role="alert" data-testid="verification-error">
            <p>{failure}</p>
          </div>
        ) : null}

        <div className="actions">
          <button type="submit" className="button" disabled={verify.isPending} aria-busy={verify.isPending} data-testid="verification-submit">
            {verify.isPending ? t('verify.submitting') : t('verify.submit')}
          </button>
        </div>
      </form>

      <div className="verify-result__section verify-page__result" data-testid="verification-result">
        {showResult ? (
          <h2 id="verify-result-title" ref={resultTitle} tabIndex={-1}>
            {t('verify.resultTitle')}
          </h2>
        ) : null}
        <VerificationResult result={verify.data ?? null} pending={verify.isPending} level={3} />
      </div>
    </div>
  );
}
