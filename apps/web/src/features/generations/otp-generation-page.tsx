import { maskContact, SIGNATURE_KINDS, type GenerationView, type LaunchSignatures, type SignatureKind } from '@sceau/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { mayOpen } from '@/lib/app-routes';
import { ErrorAlert } from '@/components/error-alert';
import { describedBy, FormField } from '@/components/form-field';
import { GenerationStatusBadge, SignatureStatusBadge, generationLabel, generationTypeLabel } from '@/components/generation-status';
import { useGeneration } from '@/features/generations/generations-api';
import { isMoving, sendLaunchCode, verifyLaunchCode, type LaunchCodeSent } from '@/features/generations/issuing-api';
import { downloadSpecimen, useLaunchGeneration, useLaunchSignatures } from '@/features/generations/launch-api';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, textMessage, useMessageText, type Message } from '@/lib/message';
import { useGrants, useSession } from '@/lib/session-context';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';

const CODE_LENGTH = 6;
const DEFAULT_RESEND_SECONDS = 60;
const FIRST_PAGE = { page: 1, search: '', institution: null, centre: null };

/** The current time, ticking every second while `active`. */

function formatSeconds(total: number): string {
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Launching a batch's generation: a one-time code sent to the signed-in user, checked, then the launch. */
export function OtpGenerationPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const detail = useGeneration(id, FIRST_PAGE);
  const batch = detail.data?.data;
  useDocumentTitle(t('pages.otpGeneration.title'));

  if (!(Number.isInteger(id) && id > 0) || (isApiError(detail.error) && detail.error.status === 404)) {
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

  return (
    <div className="container page stack">
      <p>{batch ? <Link to={`/show/${batch.id}`}>{t('launch.backToBatch')}</Link> : <Link to="/dashboard">{t('common.backDashboard')}</Link>}</p>
      <header className="page-header">
        <div>
          <h1>{t('pages.otpGeneration.title')}</h1>
          <p className="lead">{t('launch.intro')}</p>
        </div>
      </header>
      {batch ? (
        <>
          <BatchCard batch={batch} />
          {batch.status === 'failed' ? (
            <div className="alert alert--error" data-testid="launch-relaunch">
              <p>{t('launch.relaunchNote')}</p>
              {batch.last_error ? (
                <p>
                  <strong>{t('batch.lastError')}</strong> {batch.last_error}
                </p>
              ) : null}
            </div>
          ) : null}
          {/* A failed batch is relaunched the same way: its generation resumes where it stopped. The batch's abilities say whether it may be (the server's policy). */}
          {batch.abilities.launch ? <LaunchSteps batch={batch} /> : <NotReady batch={batch} />}
        </>
      ) : detail.isError ? (
        <ErrorAlert error={detail.error} onRetry={() => void detail.refetch()} />
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
    </div>
  );
}

function BatchCard({ batch }: { batch: GenerationView }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="launch-batch" data-testid="launch-batch">
      <h2 id="launch-batch">{generationLabel(t, batch)}</h2>
      <p className="muted">{[generationTypeLabel(t, batch.type), batch.session.name, batch.province.name].join(' · ')}</p>
      <p>
        <GenerationStatusBadge status={batch.status} />
        <SignatureStatusBadge status={batch.signature_status} />
      </p>
      <p>{t('launch.counts', { items: batch.counts.items, rejected: batch.counts.rejected, count: batch.counts.items - batch.counts.rejected })}</p>
    </section>
  );
}

/** Why this batch cannot be launched now (its status, for display), and where to go instead (its abilities). */
function NotReady({ batch }: { batch: GenerationView }) {
  const { t } = useTranslation();
  const grants = useGrants();
  const status = t(`generations.status.${batch.status}`);
  let next: { to: string; label: string } | null = null;
  const can = batch.abilities;
  if (can.validate_photos && mayOpen(grants, '/validate-picture/:id')) next = { to: `/validate-picture/${batch.id}`, label: t('batch.actions.validatePhotos') };
  else if (can.validate_data && mayOpen(grants, '/validate-data/:id')) next = { to: `/validate-data/${batch.id}`, label: t('batch.actions.validateData') };
  else if (can.sign || isMoving(batch)) next = { to: `/generating-op/${batch.id}`, label: t('batch.actions.follow') };
  const reason =
    batch.status === 'created' || batch.status === 'pending_validation' || batch.status === 'in_progress' || batch.status === 'ready_for_signature'
      ? t(`launch.notReady.${batch.status}`)
      : t('launch.notReady.other');
  return (
    <section className="card stack" aria-labelledby="launch-not-ready" data-testid="launch-not-ready">
      <h2 id="launch-not-ready">{t('launch.notReadyTitle', { status })}</h2>
      <p>{reason}</p>
      <div className="actions">
        {next ? (
          <Link className="button" to={next.to}>
            {next.label}
          </Link>
        ) : null}
        <Link className="button button--secondary" to={`/show/${batch.id}`}>
          {t('launch.backToBatch')}
        </Link>
      </div>
    </section>
  );
}

function LaunchSteps({ batch }: { batch: GenerationView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { profile } = useSession();
  const start = useLaunchGeneration();
  const signatures = useLaunchSignatures(batch.id);
  // The user's choice; until they change it, the batch's earlier one or every active signature.
  const [picked, setPicked] = useState<SignatureKind[] | null>(null);
  const available = signatures.data?.available ?? [];
  const chosen = picked ?? signatures.data?.chosen ?? available.map((s) => s.kind);
  const noneChosen = available.length > 0 && chosen.length === 0;

  // The messages below are written when shown, so a language chosen afterwards applies to them.
  const [sent, setSent] = useState<(Omit<LaunchCodeSent, 'message'> & { message: Message; at: number }) | null>(null);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<Message | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<Message | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [verified, setVerified] = useState<Message | null>(null);
  const [launchError, setLaunchError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const codeInput = useRef<HTMLInputElement>(null);
  const launchButton = useRef<HTMLButtonElement>(null);

  // A code sent (or a resend refused) reads the clock at once: its timers never start a minute high.
  const now = useNow(sent !== null || resendAt !== null, `${sent?.at ?? ''}/${resendAt ?? ''}`);
  const secondsToResend = resendAt ? Math.max(0, Math.ceil((resendAt - now) / 1000)) : 0;
  const minutesLeft = sent ? Math.max(0, Math.ceil((sent.at + sent.expires_in * 1000 - now) / 60000)) : null;
  const destination = profile?.email ?? profile?.phone ?? null;

  // After a reload, the server says where the step stood: a code waiting, or already verified.
  const resumed = useRef(false);
  const launchCode = signatures.data?.launch_code;
  useEffect(() => {
    if (resumed.current || launchCode === undefined) return;
    resumed.current = true;
    if (!launchCode) return;
    const at = Date.now();
    const waiting = launchCode.state === 'sent';
    setSent({
      message: keyMessage(waiting ? 'launch.codeStillWaiting' : 'launch.codeAlreadyVerified'),
      channel: launchCode.channel,
      destination: launchCode.destination,
      expires_in: launchCode.expires_in,
      resend_in: launchCode.resend_in,
      at,
    });
    if (launchCode.resend_in > 0) setResendAt(at + launchCode.resend_in * 1000);
    if (!waiting) setVerified(keyMessage('launch.codeAlreadyVerified'));
  }, [launchCode]);

  useEffect(() => {
    if (verified) launchButton.current?.focus();
  }, [verified]);
  // Once a code is sent, its field (rendered with `sent`) takes the focus.
  useEffect(() => {
    if (sent) codeInput.current?.focus();
  }, [sent]);

  async function onSend() {
    setSending(true);
    setSendError(null);
    try {
      const answer = await sendLaunchCode(batch.id);
      setSent({ ...answer, message: textMessage(answer.message), at: Date.now() });
      setResendAt(Date.now() + answer.resend_in * 1000);
      setCode('');
      setCodeError(null);
      setVerified(null);
    } catch (error) {
      if (isApiError(error) && error.status === 429) setResendAt(Date.now() + (error.retryAfter ?? DEFAULT_RESEND_SECONDS) * 1000);
      setSendError(failureMessage(error));
    } finally {
      setSending(false);
    }
  }

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setCodeError(keyMessage('otp.codeFormat', { count: CODE_LENGTH }));
      codeInput.current?.focus();
      return;
    }
    setCodeError(null);
    setVerifying(true);
    try {
      setVerified(textMessage(await verifyLaunchCode(batch.id, code)));
    } catch (error) {
      setCodeError(failureMessage(error, 'code'));
      codeInput.current?.focus();
      codeInput.current?.select();
    } finally {
      setVerifying(false);
    }
  }

  function onLaunch() {
    setLaunchError(null);
    if (!signatures.data) return;
    // Sent in the settings page's order; none when none is registered (the server then puts none).
    const kinds = available.length > 0 ? SIGNATURE_KINDS.filter((kind) => chosen.includes(kind)) : undefined;
    // The promise, not mutate's callbacks: the launch refreshes the batch, whose new status unmounts
    // these steps before the callbacks would run, and the user would stay here.
    start.mutateAsync({ generationId: batch.id, signatures: kinds }).then(
      () => void navigate(`/generating-op/${batch.id}`),
      (error: unknown) => {
        const codeMessage = isApiError(error) ? error.fieldErrors.code?.[0] : undefined;
        if (codeMessage) {
          // The verified code has expired or was used: a new one is needed.
          setVerified(null);
          setCode('');
          setCodeError(textMessage(codeMessage));
        }
        const signaturesMessage = isApiError(error) ? error.fieldErrors.signatures?.[0] : undefined;
        if (signaturesMessage) void signatures.refetch();
        setLaunchError(signaturesMessage ? textMessage(signaturesMessage) : failureMessage(error));
      },
    );
  }

  const channel = sent?.channel === 'sms' ? t('launch.channelSms') : t('launch.channelEmail');

  return (
    <>
      <section className="card stack" aria-labelledby="launch-code-title" data-testid="launch-code">
        <h2 id="launch-code-title">{t('launch.codeTitle')}</h2>
        <p>{t('launch.codeIntro')}</p>
        {sendError ? (
          <div className="alert alert--error" role="alert" data-testid="launch-send-error">
            {messageText(sendError)}
          </div>
        ) : null}
        <div aria-live="polite">
          {sent ? (
            <div className="alert alert--success" data-testid="launch-code-sent">
              <p>{messageText(sent.message)}</p>
              <p>{destination ? t('launch.sentTo', { channel, contact: maskContact(destination) }) : t('launch.sentBy', { channel })}</p>
            </div>
          ) : null}
        </div>
        {minutesLeft !== null ? (
          <p className="muted" data-testid="launch-expiry">
            {minutesLeft > 0 ? t('launch.expiresIn', { count: minutesLeft }) : t('launch.expired')}
          </p>
        ) : null}
        <div className="actions">
          <button
            type="button"
            className={sent ? 'button button--secondary' : 'button'}
            disabled={sending || secondsToResend > 0}
            aria-busy={sending}
            onClick={() => void onSend()}
            data-testid="launch-send"
          >
            {sending ? t('launch.sending') : secondsToResend > 0 ? t('launch.resendIn', { time: formatSeconds(secondsToResend) }) : sent ? t('launch.resend') : t('launch.send')}
          </button>
        </div>

        {sent ? (
          <form className="form" noValidate onSubmit={(event) => void onVerify(event)} aria-label={t('launch.verifyForm')}>
            <FormField id="launch-otp" label={t('launch.code')} hint={t('launch.codeHint', { count: CODE_LENGTH })} error={messageText(codeError)}>
              <input
                id="launch-otp"
                ref={codeInput}
                className="otp__input"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={CODE_LENGTH}
                value={code}
                disabled={verified !== null}
                aria-invalid={codeError ? true : undefined}
                aria-describedby={describedBy('launch-otp', { hint: true, error: !!codeError })}
                onChange={(event) => {
                  setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH));
                  if (codeError) setCodeError(null);
                }}
              />
            </FormField>
            {verified ? (
              <p className="alert alert--success" role="status" data-testid="launch-verified">
                {messageText(verified)}
              </p>
            ) : (
              <button type="submit" className="button" disabled={verifying} aria-busy={verifying}>
                {verifying ? t('launch.verifying') : t('launch.verify')}
              </button>
            )}
          </form>
        ) : null}
      </section>

      <OfficialSignatures query={signatures} chosen={chosen} onChange={setPicked} noneChosen={noneChosen} />

      {batch.abilities.preview ? <Specimen batchId={batch.id} signatures={available.length > 0 ? SIGNATURE_KINDS.filter((kind) => chosen.includes(kind)) : undefined} /> : null}

      <section className="card stack" aria-labelledby="launch-go-title" data-testid="launch-go">
        <h2 id="launch-go-title">{t('launch.goTitle')}</h2>
        <p>{verified ? t('launch.goReady') : t('launch.goWaiting')}</p>
        {launchError ? (
          <div className="alert alert--error" role="alert" data-testid="launch-error">
            {messageText(launchError)}
          </div>
        ) : null}
        <button
          ref={launchButton}
          type="button"
          className="button button--large"
          disabled={!verified || start.isPending || !signatures.data || noneChosen}
          aria-busy={start.isPending}
          onClick={onLaunch}
        >
          {start.isPending ? t('launch.launching') : t('launch.launch')}
        </button>
      </section>
    </>
  );
}

/** A "SPÉCIMEN" PDF of the batch's first candidate, with the signatures being chosen: a real diploma to look at before signing. */
function Specimen({ batchId, signatures }: { batchId: number; signatures: SignatureKind[] | undefined }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();
  async function onOpen() {
    setLoading(true);
    setError(null);
    try {
      await downloadSpecimen(batchId, { signatures });
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setLoading(false);
    }
  }
  return (
    <section className="card stack" aria-labelledby="launch-specimen-title" data-testid="launch-specimen">
      <h2 id="launch-specimen-title">{t('launch.specimenTitle')}</h2>
      <p>{t('launch.specimenIntro')}</p>
      {error ? (
        <div className="alert alert--error" role="alert">
          {messageText(error)}
        </div>
      ) : null}
      <div className="actions">
        <button type="button" className="button button--secondary" onClick={() => void onOpen()} disabled={loading} aria-busy={loading}>
          {loading ? t('launch.specimenLoading') : t('launch.specimenButton')}
        </button>
      </div>
    </section>
  );
}

/**
 * The official signatures the diplomas will carry (spec: "add signature"): the user picks among
 * those registered on /settings; once some diplomas are printed (a relaunch), the choice is fixed.
 */
function OfficialSignatures({
  query,
  chosen,
  onChange,
  noneChosen,
}: {
  query: ReturnType<typeof useLaunchSignatures>;
  chosen: SignatureKind[];
  onChange: (kinds: SignatureKind[]) => void;
  noneChosen: boolean;
}) {
  const { t } = useTranslation();
  const grants = useGrants();
  const data: LaunchSignatures | undefined = query.data;
  const byKind = new Map((data?.available ?? []).map((s) => [s.kind, s]));
  const missing = data ? SIGNATURE_KINDS.filter((kind) => !byKind.has(kind)) : [];
  const locked = data?.locked ?? false;
  return (
    <section className="card stack" aria-labelledby="launch-signatures" data-testid="launch-signatures">
      <h2 id="launch-signatures">{t('launch.signaturesTitle')}</h2>
      {query.isError ? <ErrorAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {data && data.available.length > 0 ? (
        <fieldset className="fieldset" aria-describedby="launch-signatures-hint" aria-invalid={noneChosen ? true : undefined}>
          <legend>{t('launch.signaturesChoose')}</legend>
          <p id="launch-signatures-hint" className="field__hint">
            {locked ? t('launch.signaturesLocked') : t('launch.signaturesIntro')}
          </p>
          <ul className="signature-list">
            {SIGNATURE_KINDS.filter((kind) => byKind.has(kind)).map((kind) => {
              const signature = byKind.get(kind)!;
              return (
                <li key={kind} data-signature-kind={kind}>
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={chosen.includes(kind)}
                      disabled={locked}
                      onChange={(event) => onChange(event.target.checked ? [...chosen, kind] : chosen.filter((k) => k !== kind))}
                    />
                    <span>
                      <strong>{t(`signatures.kinds.${kind}`)}</strong> — {signature.name}, {signature.title}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          {noneChosen ? (
            <p className="field__error" role="alert" data-testid="launch-signatures-error">
              {t('launch.signaturesNone')}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {data && data.available.length === 0 ? <p className="alert alert--info">{t('launch.signaturesNoneRegistered')}</p> : null}
      {missing.length > 0 && data && data.available.length > 0 ? (
        <p className="muted" data-testid="launch-signatures-missing">
          {t('launch.signaturesNotRegistered', { kinds: missing.map((kind) => t(`signatures.kinds.${kind}`)).join(', ') })}
        </p>
      ) : null}
      {mayOpen(grants, '/settings') ? (
        <p>
          <Link to="/settings">{t('launch.manageSignatures')}</Link>
        </p>
      ) : null}
    </section>
  );
}
