import type { TFunction } from 'i18next';
import { lazy, Suspense, useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';
import { formatBytes } from '@/lib/format-bytes';
import { isApiError, type ApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';
import { OfflineResult, type OfflineState } from '@/features/verification/offline-result';
import { classifyQrText, useVerifyQr, type QrContent } from '@/features/verification/qr-content';
import { isImageFile, readQrPhoto, type QrPhotoProblem } from '@/features/verification/qr-photo';
import { isPortableTooLarge, MAX_PORTABLE_BYTES, pastedPortable } from '@/features/verification/portable-upload';
import { DOCUMENT_ACCEPT, isAcceptableLink, MAX_DOCUMENT_BYTES } from '@/features/verification/verification-api';
import { useVerifyDocument } from '@/features/verification/verify-document-api';
import { VerificationResult } from '@/features/verification/verification-result';

// The camera's code (and the QR decoder it loads) comes with the camera mode only.
const CameraScanner = lazy(() => import('@/features/verification/camera-scanner'));

type Mode = 'link' | 'document' | 'camera';
/** The fields' errors, translated when shown (a language chosen afterwards applies to them). */
type Errors = Partial<Record<Mode, Message>>;
/** Which verification the result area shows: the form's (link, document), a read QR code's, or the offline check. */
type Shown = 'form' | 'qr' | 'offline';
type Photo = { status: 'none' } | { status: 'reading' } | { status: 'read'; content: QrContent } | { status: 'problem'; problem: QrPhotoProblem };

const MODES = ['link', 'document', 'camera'] as const;
const LINK_ID = 'verify-link';
const DOCUMENT_ID = 'verify-document';
/** Documents the server reads, and photos of a QR code, read here. */
const UPLOAD_ACCEPT = `${DOCUMENT_ACCEPT},image/*`;

/** Spec section 8: the connection error as such, any other failure as "Verification failed". */
function failureText(error: ApiError | Error, t: TFunction, messageText: (message: Message) => string | null, fieldsShown: boolean): string | null {
  if (!isApiError(error)) return t('verify.failed');
  if (error.code === 'network_error') return messageText(failureMessage(error));
  if (error.status === 422) return fieldsShown ? null : (Object.values(error.fieldErrors)[0]?.[0] ?? error.message);
  if (error.status === 429) return `${t('verify.failed')} — ${error.message}`;
  return t('verify.failed');
}

/**
 * /verification: by the diploma's link (or number, or offline QR text), by its document or a photo
 * of one of its QR codes, or with the camera; a signed QR code can also be checked offline.
 */
export function VerificationPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('verify.pageTitle'));
  const verify = useVerifyDocument();
  const verifyQr = useVerifyQr();
  const [mode, setMode] = useState<Mode>('link');
  const [link, setLink] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [photo, setPhoto] = useState<Photo>({ status: 'none' });
  const [scanned, setScanned] = useState<QrContent | null>(null);
  const [scanRound, setScanRound] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const messageText = useMessageText();
  const [dragging, setDragging] = useState(false);
  const [shown, setShown] = useState<Shown>('form');
  const [offline, setOffline] = useState<{ text: string; state: OfflineState } | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const resultTitle = useRef<HTMLHeadingElement>(null);
  const photoToken = useRef(0);
  const maxSize = formatBytes(MAX_DOCUMENT_BYTES, currentLocale(i18n));
  const portableTooLarge = keyMessage('errors:field.portable_too_large', { size: MAX_PORTABLE_BYTES / 1024 });

  const active = shown === 'qr' ? verifyQr : verify;
  const offlineDone = shown === 'offline' && offline?.state.status !== 'pending';

  // Once a verdict arrives, bring it into view (below the form on a phone).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new verdict (`active.data`) moves the focus to it again.
  useEffect(() => {
    if (active.isSuccess || offlineDone) resultTitle.current?.focus();
  }, [active.isSuccess, active.data, offlineDone]);

  /** The signed QR text that may be checked offline, from whichever way it came. */
  const signedText =
    mode === 'link'
      ? classifyQrText(link)?.kind === 'signed'
        ? classifyQrText(link)!.text
        : null
      : mode === 'document'
        ? photo.status === 'read' && photo.content.kind === 'signed'
          ? photo.content.text
          : null
        : scanned?.kind === 'signed'
          ? scanned.text
          : null;

  function clearResults() {
    verify.reset();
    verifyQr.reset();
    setOffline(null);
    setShown('form');
  }

  function refuseFile(message: Message) {
    setFile(null);
    setPhoto({ status: 'none' });
    setErrors((current) => ({ ...current, document: message }));
    if (fileInput.current) fileInput.current.value = '';
  }

  function choose(next: File | undefined) {
    if (!next) return;
    if (next.size > MAX_DOCUMENT_BYTES) return refuseFile(keyMessage('errors:field.file_too_large', { size: MAX_DOCUMENT_BYTES / 1024 / 1024 }));
    setErrors(({ document: _dropped, ...rest }) => rest);
    setFile(next);
    const token = ++photoToken.current;
    // An SD-JWT or a W3C VC past what the server reads is refused here, before it is sent.
    void isPortableTooLarge(next).then((tooLarge) => {
      if (tooLarge && token === photoToken.current) refuseFile(portableTooLarge);
    });
    if (!isImageFile(next)) return setPhoto({ status: 'none' });
    // A photo: its QR code is read here, in the browser (the decoder loads with the first photo).
    setPhoto({ status: 'reading' });
    void readQrPhoto(next).then((outcome) => {
      if (token !== photoToken.current) return;
      if (outcome.ok) setPhoto({ status: 'read', content: outcome.content });
      else {
        setPhoto({ status: 'problem', problem: outcome.problem });
        setErrors((current) => ({ ...current, document: keyMessage(`scan.qr.${outcome.problem}`) }));
      }
    });
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (mode !== 'document') switchMode('document');
    choose(event.dataTransfer.files[0]);
  }

  function verifyContent(content: QrContent) {
    setOffline(null);
    verify.reset();
    setShown('qr');
    verifyQr.mutate(content);
  }

  async function checkOfflineText(text: string) {
    verify.reset();
    verifyQr.reset();
    setShown('offline');
    setOffline({ text, state: { status: 'pending' } });
    let state: OfflineState;
    try {
      const { checkOffline } = await import('@/features/verification/offline-verify');
      state = { status: 'done', check: await checkOffline(text) };
    } catch (error) {
      state = { status: error instanceof Error && error.name === 'KeysUnavailableError' ? 'keys-unavailable' : 'failed' };
    }
    setOffline((current) => (current?.text === text ? { text, state } : current));
  }

  function onScan(content: QrContent) {
    setScanned(content);
    // Without a network, a signed QR code can still be checked here.
    if (content.kind === 'signed' && typeof navigator !== 'undefined' && navigator.onLine === false) void checkOfflineText(content.text);
    else verifyContent(content);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (verify.isPending || verifyQr.isPending) return;
    // An SD-JWT VC or a W3C VC pasted in the link field is sent as the document it is.
    const pasted = mode === 'link' ? pastedPortable(link) : null;
    if (mode === 'link') {
      const problem = !link.trim()
        ? keyMessage('errors:field.required')
        : pasted === 'too_large'
          ? portableTooLarge
          : !pasted && !isAcceptableLink(link)
            ? keyMessage('errors:field.invalid_url')
            : null;
      setErrors(problem ? { link: problem } : {});
      if (problem) return linkInput.current?.focus();
    } else if (mode === 'document') {
      const problem = !file
        ? keyMessage('errors:field.file_required')
        : file.size > MAX_DOCUMENT_BYTES
          ? keyMessage('errors:field.file_too_large', { size: MAX_DOCUMENT_BYTES / 1024 / 1024 })
          : (await isPortableTooLarge(file))
            ? portableTooLarge
            : photo.status === 'problem'
              ? keyMessage(`scan.qr.${photo.problem}`)
              : null;
      setErrors(problem ? { document: problem } : {});
      if (problem) return fileInput.current?.focus();
      if (photo.status === 'reading') return;
      if (photo.status === 'read') return verifyContent(photo.content);
    } else return;
    setOffline(null);
    verifyQr.reset();
    setShown('form');
    try {
      await verify.mutateAsync(pasted instanceof File ? { kind: 'document', file: pasted } : mode === 'link' ? { kind: 'link', link } : { kind: 'document', file: file! });
    } catch (error) {
      if (!isApiError(error) || error.status !== 422) return;
      const fields = error.fieldErrors;
      const message = (mode === 'link' ? (fields.cert_url ?? fields.cert_document) : (fields.cert_document ?? fields.cert_url))?.[0] ?? error.message;
      setErrors({ [mode]: textMessage(message) });
      (mode === 'link' ? linkInput : fileInput).current?.focus();
    }
  }

  function switchMode(next: Mode) {
    setMode(next);
    setErrors({});
    setScanned(null);
    clearResults();
  }

  const failure = active.error ? failureText(active.error, t, messageText, shown === 'form') : null;
  // A connection or server failure may pass: the same check again, in one tap.
  const canRetry = !!active.error && isApiError(active.error) && (active.error.status === 0 || active.error.status >= 500) && !!active.variables;
  function retry() {
    if (shown === 'qr' && verifyQr.variables) verifyQr.mutate(verifyQr.variables);
    else if (shown === 'form' && verify.variables) verify.mutate(verify.variables);
  }
  const pending = verify.isPending || verifyQr.isPending;
  const showResult = shown === 'offline' ? !!offline : active.isPending || !!active.data;

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
            {MODES.map((option) => (
              <label key={option} className="segmented__option" htmlFor={`verify-mode-${option}`}>
                <input id={`verify-mode-${option}`} type="radio" name="verify-mode" value={option} checked={mode === option} onChange={() => switchMode(option)} />
                <span>{t(`verify.mode.${option}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {mode === 'link' ? (
          <FormField id={LINK_ID} label={t('verify.link.label')} hint={`${t('verify.link.hint')} ${t('verify.link.portable')}`} error={messageText(errors.link)}>
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
        ) : mode === 'document' ? (
          <FormField
            id={DOCUMENT_ID}
            label={t('verify.document.label')}
            hint={`${t('verify.document.hint', { size: maxSize })} ${t('verify.document.portable', { size: formatBytes(MAX_PORTABLE_BYTES, currentLocale(i18n)) })}`}
            error={messageText(errors.document)}
          >
            {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a mouse shortcut; the file input inside is the keyboard's way. */}
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
                accept={UPLOAD_ACCEPT}
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
              {photo.status === 'reading' || photo.status === 'read' ? (
                <p className="muted" role="status" data-testid="verification-qr">
                  {photo.status === 'reading' ? t('scan.qr.reading') : t(`scan.qr.found.${photo.content.kind}`)}
                </p>
              ) : null}
            </div>
          </FormField>
        ) : (
          <div className="verify-camera">
            {scanned ? (
              <>
                <p className="muted" role="status" data-testid="verification-qr">
                  {t(`scan.qr.found.${scanned.kind}`)}
                </p>
                <div className="actions">
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => {
                      setScanned(null);
                      clearResults();
                      setScanRound((n) => n + 1);
                    }}
                  >
                    {t('scan.camera.again')}
                  </button>
                </div>
              </>
            ) : (
              <Suspense
                fallback={
                  <p className="verify-result__pending">
                    <span className="spinner" aria-hidden="true" />
                    {t('common.loading')}
                  </p>
                }
              >
                <CameraScanner key={scanRound} onScan={onScan} />
              </Suspense>
            )}
          </div>
        )}

        {failure ? (
          <div className="alert alert--error" role="alert" data-testid="verification-error">
            <p>{failure}</p>
            {canRetry ? (
              <button type="button" className="button button--secondary button--small" onClick={retry} data-testid="verification-retry">
                {t('common.retry')}
              </button>
            ) : null}
          </div>
        ) : null}

        <div className="actions">
          {mode !== 'camera' ? (
            <button type="submit" className="button" disabled={pending || photo.status === 'reading'} aria-busy={pending} data-testid="verification-submit">
              {pending ? t('verify.submitting') : t('verify.submit')}
            </button>
          ) : null}
          {signedText ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void checkOfflineText(signedText)}
              disabled={offline?.state.status === 'pending'}
              aria-describedby="verify-offline-hint"
              data-testid="verification-offline"
            >
              {t('scan.offline.action')}
            </button>
          ) : null}
        </div>
        {signedText ? (
          <p id="verify-offline-hint" className="field__hint">
            {t('scan.offline.actionHint')}
          </p>
        ) : null}
      </form>

      <div className="verify-result__section verify-page__result" data-testid="verification-result">
        {showResult ? (
          <h2 id="verify-result-title" ref={resultTitle} tabIndex={-1}>
            {shown === 'offline' ? t('scan.offline.title') : t('verify.resultTitle')}
          </h2>
        ) : null}
        {shown === 'offline' && offline ? (
          <OfflineResult state={offline.state} onCompleteOnline={() => verifyContent({ kind: 'signed', text: offline.text })} completing={verifyQr.isPending} />
        ) : (
          <VerificationResult result={active.data ?? null} pending={active.isPending} level={3} />
        )}
      </div>
    </div>
  );
}
