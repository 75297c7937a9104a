import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '@/components/error-alert';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDiplomaKindLabel } from './diploma-kind';
import { type SharedDiplomaView, sharedPhotoUrl, sharedSdJwtUrl, useSharedDiploma } from './holder-api';
import './holder.css';

type SharedDiploma = NonNullable<SharedDiplomaView['diploma']>;

/** Verdicts under which the holder's photo is served (a published diploma that is not revoked). */
const SERVED = new Set<SharedDiplomaView['verdict']>(['authentic', 'incomplete']);

function Photo({ token, name }: { token: string; name: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img className="holder-shared__photo" src={sharedPhotoUrl(token)} alt={t('holder.shared.photoOf', { name })} width={120} height={150} onError={() => setFailed(true)} />;
}

function Facts({ view, diploma, kind }: { view: SharedDiplomaView; diploma: SharedDiploma; kind: string | null }) {
  const { t } = useTranslation();
  const withheld = new Set(view.withheld);
  const kept = t('holder.shared.withheld');
  // A field the holder kept back is named, and said to be undisclosed, rather than left out silently.
  const rows: [string, string | number | undefined, boolean][] = [
    [t('holder.fields.kind'), kind ?? undefined, false],
    [t('holder.fields.birthDate'), diploma.birth_date, withheld.has('birth_date')],
    [t('holder.fields.birthPlace'), diploma.birth_place, withheld.has('birth_place')],
    [t('holder.fields.option'), diploma.option, false],
    [t('holder.fields.school'), diploma.school, withheld.has('school')],
    [t('holder.fields.session'), diploma.session, false],
    [t('holder.fields.result'), diploma.percentage === undefined ? undefined : t('holder.fields.percentage', { value: diploma.percentage }), withheld.has('percentage')],
    [t('holder.fields.photo'), undefined, withheld.has('photo')],
    [t('holder.fields.issuer'), diploma.issuer?.name, false],
  ];
  return (
    <dl className="holder-facts">
      {rows
        .filter(([, value, hidden]) => hidden || (value !== undefined && value !== ''))
        .map(([label, value, hidden]) => (
          <div key={label} data-withheld={hidden || undefined}>
            <dt>{label}</dt>
            <dd className={hidden ? 'holder-withheld' : undefined}>{hidden ? kept : value}</dd>
          </div>
        ))}
    </dl>
  );
}

/**
 * /shared/{token}: what a holder's share link opens (ADR 0132): the diploma verified now, its
 * holder and public fields, until the link expires or is revoked; then the reason, in words.
 */
export function SharedDiplomaPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('holder.shared.title'));
  const { token = '' } = useParams();
  const kindLabel = useDiplomaKindLabel();
  const query = useSharedDiploma(token);
  const view = query.data;
  const refusal = isApiError(query.error) ? (query.error.fieldErrors.token?.[0] ?? null) : null;
  const diploma = view?.diploma ?? null;
  const name = diploma ? [diploma.first_name, diploma.middle_name, diploma.last_name].filter(Boolean).join(' ') : '';

  return (
    <div className="container page holder holder-shared stack">
      <h1>{t('holder.shared.title')}</h1>
      {query.isPending ? (
        <p role="status" aria-live="polite">
          {t('holder.shared.checking')}
        </p>
      ) : null}
      {refusal ? (
        <section className="card stack" aria-labelledby="holder-shared-refused" data-testid="shared-refused">
          <h2 id="holder-shared-refused">{t('holder.shared.refusedTitle')}</h2>
          <p className="alert alert--error" role="alert">
            {refusal}
          </p>
          <p>
            <Link className="button button--secondary" to="/verification">
              {t('holder.shared.toVerification')}
            </Link>
          </p>
        </section>
      ) : (
        <ErrorAlert error={query.error} onRetry={() => void query.refetch()} />
      )}
      {view ? (
        <>
          <p className={`holder-verdict holder-verdict--${view.verdict}`} data-testid="shared-verdict" data-verdict={view.verdict}>
            {view.verdict_label}
          </p>
          <p className="muted">{t('holder.shared.checkedOn', { date: formatDateTime(view.checked_at, i18n.language) })}</p>
          {diploma ? (
            <section className="card holder-shared__card" aria-labelledby="holder-shared-who">
              {SERVED.has(view.verdict) && view.disclosed.includes('photo') ? <Photo token={token} name={name} /> : null}
              <div className="stack">
                <h2 id="holder-shared-who" data-testid="shared-holder">
                  {name}
                </h2>
                <Facts view={view} diploma={diploma} kind={kindLabel(view.diploma_kind)} />
              </div>
            </section>
          ) : null}
          {view.presentation ? (
            <section className="card stack" aria-labelledby="holder-shared-presentation">
              <h2 id="holder-shared-presentation">{t('holder.shared.presentationTitle')}</h2>
              <p>{t('holder.shared.presentationText')}</p>
              <p>
                <a className="button button--secondary" href={sharedSdJwtUrl(token)} download data-testid="shared-sd-jwt">
                  {t('holder.shared.presentationDownload')}
                </a>
              </p>
            </section>
          ) : null}
          <p data-testid="shared-expiry">
            {view.expires_at ? t('holder.shared.expiresOn', { date: formatDateTime(view.expires_at, i18n.language) }) : t('holder.shared.noExpiry')}
          </p>
          <details className="card">
            <summary>{t('holder.shared.howChecked')}</summary>
            <ul className="holder-checks">
              {[...view.checks]
                .sort((a, b) => Number(b.status === 'failed') - Number(a.status === 'failed'))
                .map((check) => (
                  <li key={check.name} data-status={check.status}>
                    <strong>{check.title}</strong> — {check.message}
                  </li>
                ))}
            </ul>
          </details>
        </>
      ) : null}
    </div>
  );
}
