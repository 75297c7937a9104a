import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { formatDateTime } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDiplomaKindLabel } from './diploma-kind';
import { diplomaPdfUrl, downloadCredential, downloadSdJwt, downloadVc, type HolderDiplomaView, useMyDiplomas } from './holder-api';
import { WalletOfferButton } from './wallet-offer-dialog';
import './holder.css';

function fullName(d: Pick<HolderDiplomaView, 'first_name' | 'middle_name' | 'last_name'>): string {
  return [d.first_name, d.middle_name, d.last_name].filter(Boolean).join(' ');
}

/** A file of mine fetched signed in (the full credential, the VC, the SD-JWT VC), with its failure said beside it. */
function DownloadButton({ id, label, download }: { id: string; label: string; download: (id: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'working' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        disabled={state === 'working'}
        onClick={() => {
          setState('working');
          download(id).then(
            () => setState('idle'),
            () => setState('failed'),
          );
        }}
      >
        {label}
      </button>
      {state === 'failed' ? (
        <span role="alert" className="holder__inline-error">
          {t('holder.diplomas.credentialFailed')}
        </span>
      ) : null}
    </>
  );
}

function DiplomaCard({ diploma }: { diploma: HolderDiplomaView }) {
  const { t, i18n } = useTranslation();
  const titleId = `holder-diploma-${diploma.id}`;
  const kind = useDiplomaKindLabel()(diploma.kind);
  return (
    <article className="card holder-diploma stack" aria-labelledby={titleId} data-testid="holder-diploma" data-diploma={diploma.id}>
      <header className="holder-diploma__head">
        <h2 id={titleId}>{kind ?? t('holder.diplomas.diploma')}</h2>
        <span className={`badge ${diploma.status === 'valid' ? 'holder-badge--valid' : 'badge--danger'}`}>{t(`holder.status.${diploma.status}`)}</span>
      </header>
      <dl className="holder-facts">
        <div>
          <dt>{t('holder.fields.holder')}</dt>
          <dd>{fullName(diploma)}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.result')}</dt>
          <dd data-testid="holder-result">{t('holder.fields.percentage', { value: diploma.percentage.toLocaleString(i18n.language) })}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.session')}</dt>
          <dd>{diploma.session}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.option')}</dt>
          <dd>{diploma.option}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.school')}</dt>
          <dd>{diploma.school}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.code')}</dt>
          <dd>{diploma.candidate_code}</dd>
        </div>
        <div>
          <dt>{t('holder.fields.issued')}</dt>
          <dd>{formatDateTime(diploma.issued_at, i18n.language)}</dd>
        </div>
      </dl>
      {diploma.status === 'revoked' ? (
        <p className="alert alert--error">
          {diploma.revocation_reason ? t('holder.diplomas.revokedBecause', { reason: diploma.revocation_reason }) : t('holder.diplomas.revoked')}
        </p>
      ) : null}
      <div className="actions holder-diploma__actions">
        {diploma.abilities.download ? (
          <>
            <a className="button" href={diplomaPdfUrl(diploma.id)} download={`diplome-${diploma.id}.pdf`} data-testid="holder-download">
              {t('holder.diplomas.download')}
            </a>
            <DownloadButton id={diploma.id} label={t('holder.diplomas.credential')} download={downloadCredential} />
            <DownloadButton id={diploma.id} label={t('holder.diplomas.vc')} download={downloadVc} />
            <DownloadButton id={diploma.id} label={t('holder.diplomas.sdJwt')} download={downloadSdJwt} />
            <WalletOfferButton diplomaId={diploma.id} />
          </>
        ) : null}
        {diploma.abilities.share ? (
          <Link className="button button--secondary" to={`/my-diplomas/shares?diploma=${encodeURIComponent(diploma.id)}`}>
            {t('holder.diplomas.share')}
          </Link>
        ) : null}
        <Link className="button button--ghost" to={`/verify/${encodeURIComponent(diploma.id)}`}>
          {t('holder.diplomas.verify')}
        </Link>
      </div>
      {diploma.abilities.download ? (
        <p className="muted" data-testid="sd-jwt-hint">
          {t('holder.diplomas.sdJwtHint')}
        </p>
      ) : null}
    </article>
  );
}

/** /my-diplomas: the signed-in person's own diplomas and results (ADR 0132). */
export function MyDiplomasPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('holder.diplomas.title'));
  const query = useMyDiplomas();
  const diplomas = query.data;

  return (
    <div className="container page holder stack">
      <h1>{t('holder.diplomas.title')}</h1>
      <p className="muted">{t('holder.diplomas.intro')}</p>
      <p>
        <Link to="/my-diplomas/shares">{t('holder.diplomas.toShares')}</Link>
      </p>
      {query.isPending ? (
        <p role="status" aria-live="polite">
          {t('common.loading')}
        </p>
      ) : null}
      <ErrorAlert error={query.error} onRetry={() => void query.refetch()} />
      {diplomas && diplomas.length === 0 ? (
        <section className="card stack" aria-labelledby="holder-none" data-testid="holder-none">
          <h2 id="holder-none">{t('holder.diplomas.noneTitle')}</h2>
          <p>{t('holder.diplomas.noneText')}</p>
          <p>
            <Link className="button" to="/student-check">
              {t('holder.diplomas.toStudentCheck')}
            </Link>
          </p>
        </section>
      ) : null}
      {diplomas?.map((diploma) => (
        <DiplomaCard key={diploma.id} diploma={diploma} />
      ))}
    </div>
  );
}
