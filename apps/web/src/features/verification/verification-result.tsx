import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '@/lib/i18n';
import { dynamicKey, translate } from '@/lib/text-keys';
import type { CheckStatus, PublicDiploma, VerificationCheck, VerificationResultData, Verdict } from '@/features/verification/verification-api';
import { formatCalendarDate, formatChainTime, formatPercentage, fullName, shorten } from '@/features/verification/verification-format';
import { formatInteger, formatLongDateTime } from '@/lib/format';
import { DiplomaPhoto, isDiplomaServed } from '@/features/verification/public-diploma';
import './verification.css';

type IconShape = 'check' | 'cross' | 'dash' | 'question' | 'clock' | 'alert';

const VERDICT_ICON: Record<Verdict, IconShape> = {
  authentic: 'check',
  revoked: 'cross',
  altered: 'cross',
  unknown: 'question',
  unpublished: 'clock',
  incomplete: 'alert',
};

const STATUS_ICON: Record<CheckStatus, IconShape> = { passed: 'check', failed: 'cross', 'not-checked': 'dash' };

/** Small inline icons: no icon font or library on the most visited page. */
function Icon({ shape, label, className }: { shape: IconShape; label?: string; className?: string }) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const };
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: named by aria-label when it means something, hidden from assistive technology otherwise (`a11y`).
    <svg className={className} viewBox="0 0 24 24" width="24" height="24" focusable="false" {...a11y}>
      <circle cx="12" cy="12" r="11" fill="currentColor" />
      <g fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round">
        {shape === 'check' ? <path d="M6.5 12.5l3.5 3.5 7.5-8" /> : null}
        {shape === 'cross' ? <path d="M8 8l8 8M16 8l-8 8" /> : null}
        {shape === 'dash' ? <path d="M7.5 12h9" /> : null}
        {shape === 'question' ? <path d="M9.2 9.3a2.9 2.9 0 1 1 3.9 2.7c-.7.3-1.1.9-1.1 1.6v.6M12 17.6v.1" /> : null}
        {shape === 'clock' ? <path d="M12 6.8V12l3.4 2.2" /> : null}
        {shape === 'alert' ? <path d="M12 6.8v6.4M12 17.3v.1" /> : null}
      </g>
    </svg>
  );
}

function Heading({ level, id, children, className }: { level: 2 | 3 | 4; id?: string; children: ReactNode; className?: string }) {
  const Tag = `h${level}` as const;
  return (
    <Tag id={id} className={className}>
      {children}
    </Tag>
  );
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Hash({ value, href }: { value: string; href?: string }) {
  const { t } = useTranslation();
  const short = <code title={value}>{shorten(value)}</code>;
  if (!href) return short;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {short}
      <span className="visually-hidden"> {t('common.newTab')}</span>
    </a>
  );
}

/** What a check's details add for a person: where the diploma was recorded, when it was revoked. */
function CheckFacts({ check }: { check: VerificationCheck }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const details = check.details ?? {};
  const facts: ReactNode[] = [];

  if (check.name === 'anchored' && check.status === 'passed') {
    const chainId = text(details.chainId);
    const contract = text(details.contract);
    const tx = text(details.txHash);
    const block = typeof details.blockNumber === 'number' ? formatInteger(details.blockNumber, locale) : text(details.blockNumber);
    const when = formatChainTime(details.timestamp, locale);
    if (chainId)
      facts.push(
        <Fact key="chain" label={t('verify.facts.chain')}>
          {chainId}
        </Fact>,
      );
    if (contract)
      facts.push(
        <Fact key="contract" label={t('verify.facts.contract')}>
          <Hash value={contract} />
        </Fact>,
      );
    if (tx)
      facts.push(
        <Fact key="tx" label={t('verify.facts.transaction')}>
          <Hash value={tx} href={check.link} />
        </Fact>,
      );
    if (block)
      facts.push(
        <Fact key="block" label={t('verify.facts.block')}>
          {block}
        </Fact>,
      );
    if (when)
      facts.push(
        <Fact key="when" label={t('verify.facts.recordedAt')}>
          {when}
        </Fact>,
      );
  }

  if (check.name === 'not_revoked' && check.status === 'failed') {
    const when = formatChainTime(details.timestamp, locale);
    const reason = text(details.reason);
    const tx = text(details.txHash);
    if (when)
      facts.push(
        <Fact key="when" label={t('verify.facts.revokedAt')}>
          {when}
        </Fact>,
      );
    if (reason)
      facts.push(
        <Fact key="reason" label={t('verify.facts.reason')}>
          {reason}
        </Fact>,
      );
    if (tx)
      facts.push(
        <Fact key="tx" label={t('verify.facts.transaction')}>
          <Hash value={tx} />
        </Fact>,
      );
  }

  if (!facts.length) return null;
  const list = <dl className="verify-check__facts">{facts}</dl>;
  // Where the diploma was recorded is for specialists: folded, one tap away. A revocation's date
  // and reason are for everyone: shown.
  return check.name === 'anchored' ? (
    <details className="verify-check__technical" data-testid="technical-details">
      <summary>{t('verify.technical')}</summary>
      {list}
    </details>
  ) : (
    list
  );
}

/**
 * The server's texts are in the language of the request; the same catalogue is here, keyed by the
 * check's name and code, so that a change of language applies at once without verifying again. A
 * name or code this version does not know keeps the server's text.
 */
function useCatalogueText() {
  const { t, i18n } = useTranslation();
  return (key: string, fallback: string): string => (i18n.exists(key) ? translate(t, dynamicKey(key)) : fallback);
}

function CheckItem({ check, level }: { check: VerificationCheck; level: 3 | 4 }) {
  const { t } = useTranslation();
  const catalogue = useCatalogueText();
  return (
    <li className={`verify-check verify-check--${check.status}`} data-check={check.name} data-status={check.status} data-code={check.code}>
      <Icon shape={STATUS_ICON[check.status]} label={t(`verify.status.${check.status}`)} className="verify-check__icon" />
      <div className="verify-check__body">
        <Heading level={level} className="verify-check__title">
          {catalogue(`verification:check.${check.name}`, check.title)}
        </Heading>
        <p className="verify-check__message">{catalogue(`verification:code.${check.code}`, check.message)}</p>
        <CheckFacts check={check} />
      </div>
    </li>
  );
}

function DiplomaFacts({ diploma, kind }: { diploma: PublicDiploma; kind?: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const session = diploma.session ?? (diploma.session_year !== undefined ? String(diploma.session_year) : null);
  const kindKey = `verify.kinds.${kind}`;
  return (
    <dl className="facts verify-diploma">
      {kind && i18n.exists(kindKey) ? <Fact label={t('verify.fields.kind')}>{translate(t, dynamicKey(kindKey))}</Fact> : null}
      {diploma.birth_date ? <Fact label={t('verify.fields.birthDate')}>{formatCalendarDate(diploma.birth_date, locale)}</Fact> : null}
      {diploma.option ? <Fact label={t('verify.fields.option')}>{diploma.option}</Fact> : null}
      {diploma.school ? <Fact label={t('verify.fields.school')}>{diploma.school}</Fact> : null}
      {diploma.centre ? <Fact label={t('verify.fields.centre')}>{diploma.centre}</Fact> : null}
      {session ? <Fact label={t('verify.fields.session')}>{session}</Fact> : null}
      {typeof diploma.percentage === 'number' ? <Fact label={t('verify.fields.percentage')}>{formatPercentage(diploma.percentage, locale)}</Fact> : null}
      {diploma.issue_date ? <Fact label={t('verify.fields.issueDate')}>{formatCalendarDate(diploma.issue_date, locale)}</Fact> : null}
      {diploma.issuer?.name ? <Fact label={t('verify.fields.issuer')}>{diploma.issuer.name}</Fact> : null}
      {diploma.serial ? (
        <Fact label={t('verify.fields.serial')}>
          <code>{diploma.serial}</code>
        </Fact>
      ) : null}
      <Fact label={t('verify.fields.number')}>
        <code>{diploma.id}</code>
      </Fact>
    </dl>
  );
}

/** Failed checks first (what a person must see), then those not made, then those passed; stable otherwise. */
const STATUS_ORDER: Record<CheckStatus, number> = { failed: 0, 'not-checked': 1, passed: 2 };
export const checksInReadingOrder = (checks: VerificationCheck[]) => [...checks].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);

export interface VerificationResultProps {
  result: VerificationResultData | null;
  /** A verification is under way: the live region says so, then gives the verdict. */
  pending?: boolean;
  /** Level of the result's section headings (the checks, the diploma); check titles are one below. */
  level?: 2 | 3;
  /** Offered when checking again may give another answer (incomplete, not yet published). */
  onRetry?: () => void;
  retrying?: boolean;
  /** When the answer was given (default: when it is first shown). */
  checkedAt?: number;
}

/**
 * The outcome of a verification, the same on /verification and /verify/{id}, in the order a person
 * reads it (ADR 0128): the verdict in a live region (announced when it arrives), who and what (the
 * photo, the name, the diploma's public fields), then how it was checked, failures first, with the
 * technical details folded. The server writes the same order into /verify/{id}'s HTML.
 */
export function VerificationResult({ result, pending = false, level = 2, onRetry, retrying = false, checkedAt }: VerificationResultProps) {
  const { t, i18n } = useTranslation();
  const catalogue = useCatalogueText();
  const checkLevel = (level + 1) as 3 | 4;
  const shownAt = useMemo(() => (result ? Date.now() : 0), [result]);
  // Only with a result, and without Intl in French and English: the first Intl formatter a page makes
  // costs 15–20 ms (ICU data, ADR 0151, amended).
  const when = result ? formatLongDateTime(new Date(checkedAt ?? shownAt), currentLocale(i18n)) : '';
  const name = result?.diploma ? fullName(result.diploma) : null;
  return (
    <div className="verify-result">
      <div role="status" aria-live="polite" aria-atomic="true" className="verify-result__live">
        {pending ? (
          <p className="verify-result__pending">
            <span className="spinner" aria-hidden="true" />
            {t('verify.pending')}
          </p>
        ) : result ? (
          <div className={`verdict-banner verdict-banner--${result.verdict}`} data-testid="verdict-banner" data-verdict={result.verdict}>
            <Icon shape={VERDICT_ICON[result.verdict]} className="verdict-banner__icon" />
            <div>
              <p className="verdict-banner__label">{catalogue(`verification:verdict.${result.verdict}`, result.verdict_label)}</p>
              <p className="verdict-banner__text">{t(`verify.explain.${result.verdict}`)}</p>
              <p className="verdict-banner__when" data-testid="checked-on">
                {t('verify.checkedOn', { date: when })}
              </p>
            </div>
          </div>
        ) : null}
      </div>

      {result && !pending ? (
        <>
          {onRetry && (result.verdict === 'incomplete' || result.verdict === 'unpublished') ? (
            <button type="button" className="button button--secondary button--small" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
              {t('verify.retry')}
            </button>
          ) : null}
          {result.diploma ? (
            <section aria-labelledby="verify-diploma-title" className="verify-result__section verify-holder" data-testid="verification-diploma">
              <Heading level={level} id="verify-diploma-title" className="visually-hidden">
                {t('verify.holderTitle')}
              </Heading>
              <div className="public-diploma__holder">
                {/* The photo is served for a published, valid diploma only (not revoked, not an altered copy). */}
                {isDiplomaServed(result.verdict) ? <DiplomaPhoto id={result.diploma.id} name={name} /> : null}
                <div className="verify-holder__text">
                  {name ? (
                    <p className="verify-holder__name" data-testid="holder-name">
                      {name}
                    </p>
                  ) : null}
                  <DiplomaFacts diploma={result.diploma} kind={result.diploma_kind} />
                </div>
              </div>
            </section>
          ) : null}
          <section aria-labelledby="verify-checks-title" className="verify-result__section">
            <Heading level={level} id="verify-checks-title">
              {t('verify.howChecked')}
            </Heading>
            <p className="muted verify-result__source">{t(`verify.source.${result.source}`)}</p>
            <ul className="verify-checks" data-testid="verification-checks">
              {checksInReadingOrder(result.checks).map((check) => (
                <CheckItem key={check.name} check={check} level={checkLevel} />
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </div>
  );
}
