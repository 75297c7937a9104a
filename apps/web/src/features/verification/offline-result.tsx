import type { QrFields } from '@sceau/credential/qr-codec';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '@/lib/i18n';
import type { OfflineCheck, OfflineIssuer } from '@/features/verification/offline-verify';
import { formatCalendarDate, formatChainTime, formatPercentage, fullName } from '@/features/verification/verification-format';
import '@/features/verification/offline-result.css';

export type OfflineState =
  | { status: 'pending' }
  | { status: 'done'; check: OfflineCheck }
  /** No keys cached and none could be fetched. */
  | { status: 'keys-unavailable' }
  | { status: 'failed' };

type Mark = 'passed' | 'failed' | 'online';

const BANNER: Record<OfflineCheck['verification']['status'], string> = {
  valid: 'authentic',
  'bad-signature': 'altered',
  'unknown-key': 'unknown',
  malformed: 'unknown',
};

function Mark({ mark }: { mark: Mark }) {
  const { t } = useTranslation();
  return (
    <svg className="verify-check__icon" viewBox="0 0 24 24" width="24" height="24" focusable="false" role="img" aria-label={t(`scan.offline.status.${mark}`)}>
      <circle cx="12" cy="12" r="11" fill="currentColor" />
      <path
        d={mark === 'passed' ? 'M6.5 12.5l3.5 3.5 7.5-8' : mark === 'failed' ? 'M8 8l8 8M16 8l-8 8' : 'M7.5 12h9'}
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function Item({ name, mark, title, children }: { name: string; mark: Mark; title: string; children?: ReactNode }) {
  return (
    <li className={`verify-check verify-check--${mark === 'online' ? 'not-checked' : mark}`} data-offline-check={name} data-status={mark}>
      <Mark mark={mark} />
      <div className="verify-check__body">
        <p className="verify-check__title">{title}</p>
        {children}
      </div>
    </li>
  );
}

function Fields({ fields }: { fields: QrFields }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const rows: Array<[string, string]> = [
    [t('verify.fields.name'), fullName(fields)],
    [t('verify.fields.birthDate'), formatCalendarDate(fields.birth_date, locale)],
    [t('scan.offline.fields.candidateCode'), fields.candidate_code],
    [t('verify.fields.session'), String(fields.session_year)],
    [t('verify.fields.percentage'), formatPercentage(fields.percentage, locale)],
    [t('verify.fields.issueDate'), formatCalendarDate(fields.issue_date, locale)],
    [t('scan.offline.fields.codes'), [fields.option_code, fields.school_code, fields.centre_code, fields.educ_province_code].join(' · ')],
  ];
  return (
    <dl className="facts verify-diploma" data-testid="offline-diploma">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      <div>
        <dt>{t('verify.fields.number')}</dt>
        <dd>
          <code>{fields.diploma_id}</code>
        </dd>
      </div>
    </dl>
  );
}

/** "Name (id)", in the page's language, marked when its keys are a development platform's. */
function useIssuerLabel() {
  const { t, i18n } = useTranslation();
  return (issuer: OfflineIssuer) => {
    const name = i18n.language?.startsWith('en') && issuer.nameEn ? issuer.nameEn : issuer.name;
    return `${name} (${issuer.id})${issuer.development ? ` · ${t('scan.offline.issuer.development')}` : ''}`;
  };
}

/** The issuer checked, or the one expected when no key of it signed; and where its keys came from. */
function IssuerLine({ check }: { check: OfflineCheck }) {
  const { t } = useTranslation();
  const label = useIssuerLabel();
  const source = t(check.pinned ? 'scan.offline.issuer.pinned' : 'scan.offline.issuer.platform');
  const text = check.issuer
    ? t('scan.offline.issuer.checked', { issuer: label(check.issuer) })
    : t('scan.offline.issuer.expected', { issuer: check.expected.map(label).join(' ; ') });
  return (
    <p className="verdict-banner__text" data-testid="offline-issuer" data-issuer={check.issuer?.id ?? ''} data-pinned={String(check.pinned)}>
      {text} <span className="muted">{source}</span>
    </p>
  );
}

function KeyMessage({ check }: { check: OfflineCheck }) {
  const { t, i18n } = useTranslation();
  const label = useIssuerLabel();
  const locale = currentLocale(i18n);
  const verification = check.verification;
  const kid = 'kid' in verification ? <span className="muted">{t('scan.offline.keys.kid', { kid: verification.kid })}</span> : null;
  let text: string;
  if (check.pinned) {
    text = check.issuer ? t('scan.offline.keys.pinned', { issuer: label(check.issuer) }) : t('scan.offline.keys.notPinned', { issuer: check.expected.map(label).join(' ; ') });
  } else {
    const fetchedAt = check.keys?.fetchedAt ?? '';
    text = t(check.keysFromCache ? 'scan.offline.keys.cached' : 'scan.offline.keys.fetched', { date: formatChainTime(fetchedAt, locale) ?? fetchedAt });
  }
  return (
    <p className="verify-check__message">
      {text} {kid}
    </p>
  );
}

export interface OfflineResultProps {
  state: OfflineState;
  /** Verifies the same QR code online (chain, revocation). */
  onCompleteOnline?: () => void;
  completing?: boolean;
}

/**
 * The offline check of a signed QR code (ADR 0096): what was checked here, in the browser (the
 * ministry's signature over the QR's fields, the key among the published ones), and what needs
 * the network (the blockchain record, revocation, the PDF's signature), with the way to complete it.
 */
export function OfflineResult({ state, onCompleteOnline, completing = false }: OfflineResultProps) {
  const { t, i18n } = useTranslation();
  const check = state.status === 'done' ? state.check : null;
  const verification = check?.verification;
  const status = verification?.status;
  // A valid signature by a key retired since: offline nothing says it was made before (ADR 0136).
  const retiredAt = status === 'valid' ? (check?.keyRetiredAt ?? null) : null;
  const retiredOn = retiredAt ? (formatChainTime(retiredAt, currentLocale(i18n)) ?? retiredAt) : null;

  return (
    <div className="verify-result offline-result" data-testid="offline-result">
      <div role="status" aria-live="polite" aria-atomic="true" className="verify-result__live">
        {state.status === 'pending' ? (
          <p className="verify-result__pending">
            <span className="spinner" aria-hidden="true" />
            {t('scan.offline.pending')}
          </p>
        ) : verification ? (
          <div
            className={`verdict-banner verdict-banner--${retiredOn ? 'unknown' : BANNER[verification.status]}`}
            data-testid="offline-banner"
            data-status={retiredOn ? 'retired-key' : verification.status}
          >
            <div>
              <p className="verdict-banner__label">{retiredOn ? t('scan.offline.verdict.retired-key') : t(`scan.offline.verdict.${verification.status}`)}</p>
              <p className="verdict-banner__text">{retiredOn ? t('scan.offline.explain.retired-key', { date: retiredOn }) : t(`scan.offline.explain.${verification.status}`)}</p>
              {check && verification.status !== 'malformed' ? <IssuerLine check={check} /> : null}
            </div>
          </div>
        ) : (
          <div className="alert alert--error" data-testid="offline-error">
            <p>{state.status === 'keys-unavailable' ? t('scan.offline.keysUnavailable') : t('scan.offline.failed')}</p>
          </div>
        )}
      </div>

      {check && status !== 'malformed' ? (
        <section aria-labelledby="offline-made-title" className="verify-result__section">
          <h3 id="offline-made-title">{t('scan.offline.madeOffline')}</h3>
          <ul className="verify-checks" data-testid="offline-checks">
            <Item name="published_key" mark={status === 'unknown-key' ? 'failed' : 'passed'} title={t(check.pinned ? 'scan.offline.check.pinnedKey' : 'scan.offline.check.key')}>
              <KeyMessage check={check} />
            </Item>
            {retiredOn ? (
              <Item name="key_in_service" mark="online" title={t('scan.offline.check.keyInService')}>
                <p className="verify-check__message">{t('scan.offline.keys.retired', { date: retiredOn })}</p>
              </Item>
            ) : null}
            {status !== 'unknown-key' ? (
              <Item name="qr_signature" mark={status === 'valid' ? 'passed' : 'failed'} title={t('scan.offline.check.signature')}>
                {check.engine ? <p className="verify-check__message muted">{t(`scan.offline.engine.${check.engine}`)}</p> : null}
              </Item>
            ) : null}
          </ul>
        </section>
      ) : null}

      {state.status !== 'pending' ? (
        <section aria-labelledby="offline-online-title" className="verify-result__section">
          <h3 id="offline-online-title">{t('scan.offline.needNetwork')}</h3>
          <ul className="verify-checks" data-testid="offline-online-checks">
            <Item name="anchored" mark="online" title={t('scan.offline.check.anchored')} />
            <Item name="not_revoked" mark="online" title={t('scan.offline.check.revocation')} />
            <Item name="pdf_signature" mark="online" title={t('scan.offline.check.pdf')} />
          </ul>
          {onCompleteOnline ? (
            <div className="actions">
              <button type="button" className="button" onClick={onCompleteOnline} disabled={completing} aria-busy={completing} data-testid="offline-complete">
                {t('scan.offline.complete')}
              </button>
            </div>
          ) : null}
        </section>
      ) : null}

      {verification?.status === 'valid' ? (
        <section aria-labelledby="offline-diploma-title" className="verify-result__section">
          <h3 id="offline-diploma-title">{t('verify.diplomaTitle')}</h3>
          <Fields fields={verification.fields} />
        </section>
      ) : null}
    </div>
  );
}
