import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CopyButton } from '@/components/copy-button';
import { ErrorAlert } from '@/components/error-alert';
import { FormField } from '@/components/form-field';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useDiplomaKindLabel } from './diploma-kind';
import {
  DEFAULT_SHARE_FIELDS,
  HOLDER_LIMITS,
  type HolderDiplomaView,
  SHARE_FIELDS,
  type ShareField,
  type ShareLinkView,
  useCreateShare,
  useMyDiplomas,
  useMyShares,
  useRevokeShare,
} from './holder-api';
import './holder.css';

type Duration = (typeof HOLDER_LIMITS.shareDays)[number] | 'never';
const DURATIONS: readonly Duration[] = [...HOLDER_LIMITS.shareDays, 'never'];

/** A diploma named for a list: its kind and session. */
function useDiplomaName(): (d: HolderDiplomaView | undefined) => string {
  const { t } = useTranslation();
  const kindLabel = useDiplomaKindLabel();
  return (d) => (d ? `${kindLabel(d.kind) ?? t('holder.diplomas.diploma')} — ${d.session}` : t('holder.diplomas.diploma'));
}

function CreateShareForm({ diplomas }: { diplomas: HolderDiplomaView[] }) {
  const { t } = useTranslation();
  const diplomaName = useDiplomaName();
  const [params] = useSearchParams();
  const shareable = diplomas.filter((d) => d.abilities.share);
  const wanted = params.get('diploma');
  const [diplomaId, setDiplomaId] = useState(shareable.find((d) => d.id === wanted)?.id ?? shareable[0]?.id ?? '');
  const [duration, setDuration] = useState<Duration>(30);
  const [label, setLabel] = useState('');
  const [disclosed, setDisclosed] = useState<ReadonlySet<ShareField>>(() => new Set(DEFAULT_SHARE_FIELDS));
  const create = useCreateShare();
  const fieldError = (field: string) => (isApiError(create.error) ? (create.error.fieldErrors[field]?.[0] ?? null) : null);

  if (shareable.length === 0) return <p className="muted">{t('holder.shares.nothingToShare')}</p>;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      diploma_id: diplomaId,
      days: duration === 'never' ? null : duration,
      label: label.trim() || undefined,
      disclose: SHARE_FIELDS.filter((field) => disclosed.has(field)),
    });
  };
  const toggle = (field: ShareField) => {
    const next = new Set(disclosed);
    if (!next.delete(field)) next.add(field);
    setDisclosed(next);
  };

  return (
    <form className="card stack holder-share-form" onSubmit={submit} aria-labelledby="holder-share-new" noValidate>
      <h2 id="holder-share-new">{t('holder.shares.newTitle')}</h2>
      <FormField id="share-diploma" label={t('holder.shares.diploma')} error={fieldError('diploma_id')}>
        <select id="share-diploma" value={diplomaId} onChange={(event) => setDiplomaId(event.target.value)}>
          {shareable.map((d) => (
            <option key={d.id} value={d.id}>
              {diplomaName(d)}
            </option>
          ))}
        </select>
      </FormField>
      <fieldset className="holder-durations">
        <legend className="field__label">{t('holder.shares.duration')}</legend>
        {DURATIONS.map((value) => (
          <label key={value} className="holder-duration">
            <input type="radio" name="share-duration" value={String(value)} checked={duration === value} onChange={() => setDuration(value)} />
            {value === 'never' ? t('holder.shares.never') : t('holder.shares.days', { count: value })}
          </label>
        ))}
        {fieldError('days') ? <p className="field__error">{fieldError('days')}</p> : null}
      </fieldset>
      <fieldset className="holder-disclosure" aria-describedby="share-fields-hint">
        <legend className="field__label">{t('holder.shares.fieldsLegend')}</legend>
        <p id="share-fields-hint" className="field__hint">
          {t('holder.shares.fieldsHint')}
        </p>
        {SHARE_FIELDS.map((field) => (
          <label key={field} className="holder-duration">
            <input type="checkbox" name="share-fields" value={field} checked={disclosed.has(field)} onChange={() => toggle(field)} />
            {t(`holder.shares.field.${field}`)}
          </label>
        ))}
        {fieldError('disclose') ? <p className="field__error">{fieldError('disclose')}</p> : null}
      </fieldset>
      <FormField id="share-label" label={`${t('holder.shares.label')} (${t('common.optional')})`} hint={t('holder.shares.labelHint')} error={fieldError('label')}>
        <input
          id="share-label"
          type="text"
          value={label}
          maxLength={HOLDER_LIMITS.labelMax}
          onChange={(event) => setLabel(event.target.value)}
          aria-describedby="share-label-hint"
        />
      </FormField>
      {create.error && !fieldError('diploma_id') && !fieldError('days') && !fieldError('label') && !fieldError('disclose') ? <ErrorAlert error={create.error} /> : null}
      <div className="actions">
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? t('holder.shares.creating') : t('holder.shares.create')}
        </button>
      </div>
      {create.data ? (
        <div className="alert alert--success stack" role="status" data-testid="share-created">
          <p>{t('holder.shares.created')}</p>
          <label className="field__label" htmlFor="share-url">
            {t('holder.shares.url')}
          </label>
          <input id="share-url" className="holder-share-url" type="text" readOnly value={create.data.url} onFocus={(event) => event.target.select()} />
          <div>
            <CopyButton value={create.data.url} label={t('holder.shares.copy')} />
          </div>
        </div>
      ) : null}
    </form>
  );
}

function ShareRow({ share, diploma }: { share: ShareLinkView; diploma: HolderDiplomaView | undefined }) {
  const { t, i18n } = useTranslation();
  const revoke = useRevokeShare();
  const name = useDiplomaName()(diploma);
  return (
    <li className="card holder-share" data-testid="share-link" data-state={share.state}>
      <p className="holder-share__title">
        <strong>{share.label ?? name}</strong>
        <span className={`badge ${share.state === 'active' ? 'holder-badge--valid' : 'badge--muted'}`}>{t(`holder.shares.state.${share.state}`)}</span>
      </p>
      {share.label ? <p className="muted">{name}</p> : null}
      <p className="muted" data-testid="share-shows">
        {share.disclosed.length === 0
          ? t('holder.shares.showsOnly')
          : t('holder.shares.shows', { fields: share.disclosed.map((field) => t(`holder.shares.field.${field}`)).join(', ') })}
      </p>
      <p className="muted">
        {t('holder.shares.createdOn', { date: formatDateTime(share.created_at, i18n.language) })}
        {' · '}
        {share.revoked_at
          ? t('holder.shares.revokedOn', { date: formatDateTime(share.revoked_at, i18n.language) })
          : share.expires_at
            ? share.state === 'expired'
              ? t('holder.shares.expiredOn', { date: formatDateTime(share.expires_at, i18n.language) })
              : t('holder.shares.expiresOn', { date: formatDateTime(share.expires_at, i18n.language) })
            : t('holder.shares.noExpiry')}
        {' · '}
        {t('holder.shares.opens', { count: share.opens })}
      </p>
      {share.state === 'active' ? (
        <div className="actions">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={revoke.isPending}
            aria-label={t('holder.shares.revokeNamed', { name: share.label ?? name })}
            onClick={() => revoke.mutate(share.id)}
          >
            {t('holder.shares.revoke')}
          </button>
        </div>
      ) : null}
      <ErrorAlert error={revoke.error} />
    </li>
  );
}

/** /my-diplomas/shares: make a link to one of my diplomas that expires, list my links, revoke one (ADR 0132). */
export function SharesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('holder.shares.title'));
  const diplomas = useMyDiplomas();
  const shares = useMyShares();
  const byId = new Map((diplomas.data ?? []).map((d) => [d.id, d]));

  return (
    <div className="container page holder stack">
      <h1>{t('holder.shares.title')}</h1>
      <p className="muted">{t('holder.shares.intro')}</p>
      <p>
        <Link to="/my-diplomas">{t('holder.shares.toDiplomas')}</Link>
      </p>
      {diplomas.isPending || shares.isPending ? (
        <p role="status" aria-live="polite">
          {t('common.loading')}
        </p>
      ) : null}
      <ErrorAlert error={diplomas.error ?? shares.error} onRetry={() => void Promise.all([diplomas.refetch(), shares.refetch()])} />
      {diplomas.data ? <CreateShareForm diplomas={diplomas.data} /> : null}
      {shares.data ? (
        <section aria-labelledby="holder-share-list" className="stack">
          <h2 id="holder-share-list">{t('holder.shares.listTitle')}</h2>
          {shares.data.length === 0 ? <p className="muted">{t('holder.shares.none')}</p> : null}
          <ul className="holder-share-list stack">
            {shares.data.map((share) => (
              <ShareRow key={share.id} share={share} diploma={byId.get(share.diploma_id)} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
