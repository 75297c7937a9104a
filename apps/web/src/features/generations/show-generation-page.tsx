import { DISTRIBUTION_LIMITS, type GenerationItemView, type GenerationView } from '@sceau/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { mayOpen } from '@/lib/app-routes';
import { ErrorAlert } from '@/components/error-alert';
import { GenerationProgress, GenerationStatusBadge, SignatureStatusBadge, generationLabel, generationTypeLabel } from '@/components/generation-status';
import { Pagination } from '@/components/pagination';
import { CopyButton, shortenHash } from '@/components/copy-button';
import {
  downloadBatchZip,
  downloadDiplomaPdf,
  useCancelGeneration,
  useGeneration,
  useRevokeDiploma,
  useRevokeGeneration,
  type GenerationItemsFilter,
} from '@/features/generations/generations-api';
import { isMoving } from '@/features/generations/issuing-api';
import { RevokeDialog } from '@/features/generations/revoke-dialog';
import { BroadcastPanel } from '@/features/generations/broadcast-panel';
import { sendArchiveByMail, sendDiplomaByMail } from '@/features/generations/distribution-api';
import { ShareByMailDialog } from '@/features/generations/share-by-mail-dialog';
import { Dialog } from '@/components/dialog';
import { useCentresOfProvince, useInstitutionsOfCentre } from '@/features/reference-data/reference-data-api';
import { useFlashStore } from '@/lib/flash-context';
import { formatDateTime } from '@/lib/format';
import { isApiError } from '@/lib/http';
import { currentLocale } from '@/lib/i18n';
import { useGrants } from '@/lib/session-context';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useDocumentTitle } from '@/lib/use-document-title';

type Batch = GenerationView;
type Named = { id: number; name: string };

/** "MUKENDI KABONGO Aline": the order of the national lists (nom, postnom, prénom). */
export function candidateName(item: Pick<GenerationItemView, 'last_name' | 'middle_name' | 'first_name'>): string {
  return [item.last_name, item.middle_name, item.first_name].filter((part) => part && part.trim() !== '').join(' ');
}

function byName(a: Named, b: Named): number {
  return a.name.localeCompare(b.name);
}

/** A batch: what it is, where it stands, its anchoring proof, and its candidates with their diplomas. */
export function ShowGenerationPage() {
  const { t } = useTranslation();
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0;

  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [filter, setFilter] = useState<Omit<GenerationItemsFilter, 'search'>>({ page: 1, institution: null, centre: null });
  // A new search starts from the first page.
  const [searchedFor, setSearchedFor] = useState(search);
  if (searchedFor !== search) {
    setSearchedFor(search);
    setFilter((f) => ({ ...f, page: 1 }));
  }
  const detail = useGeneration(id, { ...filter, search });
  const batch = detail.data?.data;
  useDocumentTitle(batch ? generationLabel(t, batch) : t('pages.showGeneration.title'));

  if (!validId || (isApiError(detail.error) && detail.error.status === 404)) return <BatchNotFound />;

  return (
    <div className="container page stack">
      <p>
        <Link to="/dashboard">{t('common.backDashboard')}</Link>
      </p>
      {batch ? (
        <>
          <BatchSummary batch={batch} />
          <CandidatesSection
            batch={batch}
            items={batch.items}
            meta={detail.data?.meta}
            busy={detail.isFetching}
            searchText={searchText}
            onSearch={setSearchText}
            filter={filter}
            onFilter={(next) => setFilter((f) => ({ ...f, page: 1, ...next }))}
            onPage={(page) => setFilter((f) => ({ ...f, page }))}
          />
        </>
      ) : detail.isError ? (
        <>
          <h1>{t('pages.showGeneration.title')}</h1>
          <ErrorAlert error={detail.error} onRetry={() => void detail.refetch()} />
        </>
      ) : (
        <p role="status">{t('common.loading')}</p>
      )}
    </div>
  );
}

function BatchNotFound() {
  const { t } = useTranslation();
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

function BatchSummary({ batch }: { batch: Batch }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const label = generationLabel(t, batch);
  const dash = '—';

  return (
    <>
      <header className="page-header" data-testid="batch-header">
        <div>
          <h1>{label}</h1>
          <p className="muted">{[generationTypeLabel(t, batch.type), batch.session.name, batch.province.name].join(' · ')}</p>
          <p>
            <GenerationStatusBadge status={batch.status} />
            <SignatureStatusBadge status={batch.signature_status} />
          </p>
        </div>
        <BatchActions batch={batch} label={label} />
      </header>

      {batch.status === 'failed' && batch.last_error ? (
        <div className="alert alert--error" role="alert" data-testid="batch-last-error">
          <p>
            <strong>{t('batch.lastError')}</strong> {batch.last_error}
          </p>
        </div>
      ) : null}

      <section className="card" aria-labelledby="batch-facts">
        <h2 id="batch-facts">{t('batch.factsTitle')}</h2>
        <dl className="facts">
          <div>
            <dt>{t('batch.fields.type')}</dt>
            <dd>{generationTypeLabel(t, batch.type)}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.session')}</dt>
            <dd>{batch.session.name}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.province')}</dt>
            <dd>{batch.province.name}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.institution')}</dt>
            <dd>{batch.institution?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.centre')}</dt>
            <dd>{batch.centre?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.option')}</dt>
            <dd>{batch.option?.name ?? t('batch.all')}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.candidates')}</dt>
            <dd data-testid="batch-count-items">{batch.counts.items}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.rejected')}</dt>
            <dd data-testid="batch-count-rejected">{batch.counts.rejected}</dd>
          </div>
          <div>
            <dt>{t('batch.fields.diplomas')}</dt>
            <dd data-testid="batch-count-diplomas">{batch.counts.diplomas}</dd>
          </div>
          {batch.progress.total > 0 && batch.status !== 'completed' ? (
            <div>
              <dt>{t('batch.fields.progress')}</dt>
              <dd>
                <GenerationProgress progress={batch.progress} label={t('generations.progressOf', { name: label })} />
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('batch.fields.createdAt')}</dt>
            <dd>
              <time dateTime={batch.created_at}>{formatDateTime(batch.created_at, locale)}</time>
            </dd>
          </div>
          <div>
            <dt>{t('batch.fields.publishedAt')}</dt>
            <dd>{batch.published_at ? <time dateTime={batch.published_at}>{formatDateTime(batch.published_at, locale)}</time> : dash}</dd>
          </div>
        </dl>
      </section>

      {batch.anchor ? <AnchorProof batch={batch} anchor={batch.anchor} /> : null}

      <BroadcastPanel batch={batch} />
    </>
  );
}

/** Where the batch's root was written: enough for anyone to look the transaction up. */
function AnchorProof({ batch, anchor }: { batch: Batch; anchor: NonNullable<Batch['anchor']> }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  return (
    <section className="card" aria-labelledby="batch-anchor" data-testid="batch-anchor">
      <h2 id="batch-anchor">{t('batch.anchor.title')}</h2>
      <p className="muted">{t('batch.anchor.intro')}</p>
      <dl className="facts">
        <div>
          <dt>{t('batch.anchor.chain')}</dt>
          <dd>{anchor.chain_id}</dd>
        </div>
        <div>
          <dt>{t('batch.anchor.contract')}</dt>
          <dd className="copy-row">
            <code className="hash" title={anchor.contract}>
              {shortenHash(anchor.contract)}
            </code>
            <CopyButton value={anchor.contract} label={t('batch.anchor.copyContract')} />
          </dd>
        </div>
        <div>
          <dt>{t('batch.anchor.transaction')}</dt>
          <dd className="copy-row">
            <code className="hash" title={anchor.tx_hash} data-testid="anchor-tx">
              {shortenHash(anchor.tx_hash)}
            </code>
            <CopyButton value={anchor.tx_hash} label={t('batch.anchor.copyTransaction')} />
          </dd>
        </div>
        <div>
          <dt>{t('batch.anchor.block')}</dt>
          <dd>{anchor.block_number}</dd>
        </div>
        <div>
          <dt>{t('batch.anchor.date')}</dt>
          <dd>
            <time dateTime={anchor.anchored_at}>{formatDateTime(anchor.anchored_at, locale)}</time>
          </dd>
        </div>
        {batch.merkle_root ? (
          <div>
            <dt>{t('batch.anchor.root')}</dt>
            <dd className="copy-row">
              <code className="hash" title={batch.merkle_root}>
                {shortenHash(batch.merkle_root)}
              </code>
              <CopyButton value={batch.merkle_root} label={t('batch.anchor.copyRoot')} />
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/**
 * What may be done with the batch from here: each action only when the batch's abilities (what the
 * server's policy lets the signed-in user do on it now: scope, permission and state) say so; links
 * also need the target page's route guard. The pages and calls they lead to check again.
 */
function BatchActions({ batch, label }: { batch: Batch; label: string }) {
  const { t } = useTranslation();
  const grants = useGrants();
  const can = batch.abilities;
  const revoke = useRevokeGeneration();
  const [revoking, setRevoking] = useState(false);
  // Revoked already (the API says so), or just now on this page (until the batch is read again).
  const [revokedNow, setRevoked] = useState(false);
  const revoked = revokedNow || batch.revoked_at !== null;

  const links: { to: string; key: string }[] = [];
  if (can.validate_photos && mayOpen(grants, '/validate-picture/:id')) links.push({ to: `/validate-picture/${batch.id}`, key: 'validatePhotos' });
  if (can.validate_data && mayOpen(grants, '/validate-data/:id')) links.push({ to: `/validate-data/${batch.id}`, key: 'validateData' });
  if (can.view_rejected && batch.counts.rejected > 0 && mayOpen(grants, '/student-reject/:id')) links.push({ to: `/student-reject/${batch.id}`, key: 'rejected' });
  // The label tells a relaunch (after a failure) from a first launch: display only.
  if (can.launch && mayOpen(grants, '/otp-generation/:id')) links.push({ to: `/otp-generation/${batch.id}`, key: batch.status === 'failed' ? 'relaunch' : 'launch' });
  // Following a generation or an anchoring under way is watching progress; signing is an ability.
  else if ((can.sign || isMoving(batch)) && mayOpen(grants, '/generating-op/:id')) links.push({ to: `/generating-op/${batch.id}`, key: 'follow' });
  const mayRevoke = can.revoke && !revokedNow;
  const mayZip = can.download_all;
  const mayCancel = can.cancel;
  const flash = useFlashStore();
  const cancel = useCancelGeneration();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [zipping, setZipping] = useState(false);
  const mayMailZip = can.share_by_email && !revokedNow;
  const [mailingZip, setMailingZip] = useState(false);

  if (links.length === 0 && !mayRevoke && !revoked && !mayZip && !mayCancel && !mayMailZip) return null;
  return (
    <div className="actions" data-testid="batch-actions">
      {revoked ? <span className="badge badge--danger">{t('batch.revokedBadge')}</span> : null}
      {links.map((link) => (
        <Link key={link.key} className="button button--secondary" to={link.to}>
          {t(`batch.actions.${link.key}`)}
        </Link>
      ))}
      {mayZip ? (
        <button
          type="button"
          className="button button--secondary"
          disabled={zipping}
          aria-busy={zipping}
          onClick={() => {
            setZipping(true);
            downloadBatchZip(batch.id)
              .catch((error: unknown) => flash.pushText(isApiError(error) ? error.message : t('errors.generic'), 'error'))
              .finally(() => setZipping(false));
          }}
        >
          {zipping ? t('batch.actions.zipping') : t('batch.actions.zip')}
        </button>
      ) : null}
      {mayMailZip ? (
        <button type="button" className="button button--secondary" onClick={() => setMailingZip(true)}>
          {t('distribution.mail.zipButton')}
        </button>
      ) : null}
      {mayCancel ? (
        <button type="button" className="button button--danger" onClick={() => setConfirmCancel(true)}>
          {t('batch.actions.cancel')}
        </button>
      ) : null}
      {mayRevoke ? (
        <button type="button" className="button button--danger" onClick={() => setRevoking(true)}>
          {t('batch.actions.revoke')}
        </button>
      ) : null}
      <Dialog open={confirmCancel} title={t('batch.cancelTitle')} description={t('batch.cancelText', { name: label })} onClose={() => setConfirmCancel(false)}>
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirmCancel(false)}>
            {t('batch.cancelKeep')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={cancel.isPending}
            onClick={() => {
              cancel.mutate(batch.id, {
                onSuccess: (message) => {
                  flash.pushText(message, 'success');
                  setConfirmCancel(false);
                },
                onError: (error) => flash.pushText(isApiError(error) ? error.message : t('errors.generic'), 'error'),
              });
            }}
          >
            {t('batch.cancelConfirm')}
          </button>
        </div>
      </Dialog>
      <ShareByMailDialog
        open={mailingZip}
        title={t('distribution.mail.zipTitle')}
        description={t('distribution.mail.zipText', {
          name: label,
          diplomas: batch.counts.diplomas,
          size: DISTRIBUTION_LIMITS.zipAttachmentMaxBytes / (1024 * 1024),
          days: DISTRIBUTION_LIMITS.zipLinkDays,
        })}
        onSend={(email) => sendArchiveByMail(batch.id, email)}
        onSent={(message) => {
          flash.pushText(message, 'success');
          setMailingZip(false);
        }}
        onClose={() => setMailingZip(false)}
      />
      <RevokeDialog
        open={revoking}
        title={t('revocation.batchTitle')}
        description={t('revocation.batchText', { name: label, count: batch.counts.diplomas })}
        confirmLabel={t('revocation.batchConfirm')}
        onRevoke={async (reason) => {
          const message = await revoke.mutateAsync({ generationId: batch.id, reason });
          setRevoked(true);
          return message;
        }}
        onClose={() => setRevoking(false)}
      />
    </div>
  );
}

interface CandidatesSectionProps {
  batch: Batch;
  items: GenerationItemView[];
  meta: Parameters<typeof Pagination>[0]['meta'];
  busy: boolean;
  searchText: string;
  onSearch: (text: string) => void;
  filter: Omit<GenerationItemsFilter, 'search'>;
  onFilter: (next: Partial<Pick<GenerationItemsFilter, 'institution' | 'centre'>>) => void;
  onPage: (page: number) => void;
}

function CandidatesSection({ batch, items, meta, busy, searchText, onSearch, filter, onFilter, onPage }: CandidatesSectionProps) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const flash = useFlashStore();
  const queryClient = useQueryClient();
  const revokeDiploma = useRevokeDiploma();
  const [revoking, setRevoking] = useState<GenerationItemView | null>(null);
  const [mailing, setMailing] = useState<GenerationItemView | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);
  const [seen, setSeen] = useState<{ schools: Map<number, Named>; centres: Map<number, Named> }>(() => ({ schools: new Map(), centres: new Map() }));

  // Schools and centres met among the candidates, kept across pages for the filters.
  const unseen = items.some((item) => !seen.schools.has(item.institution.id) || !seen.centres.has(item.centre.id));
  if (unseen) {
    const schools = new Map(seen.schools);
    const centres = new Map(seen.centres);
    for (const item of items) {
      schools.set(item.institution.id, item.institution);
      centres.set(item.centre.id, item.centre);
    }
    setSeen({ schools, centres });
  }

  const fixedCentre = batch.centre?.id ?? null;
  const provinceCentres = useCentresOfProvince(fixedCentre === null ? batch.province.id : null);
  const centreForSchools = fixedCentre ?? filter.centre;
  const centreSchools = useInstitutionsOfCentre(batch.institution ? null : centreForSchools);

  const centreOptions = (provinceCentres.data && provinceCentres.data.length > 0 ? provinceCentres.data : [...seen.centres.values()]).slice().sort(byName);
  const schoolOptions = (centreForSchools !== null && centreSchools.data ? centreSchools.data : [...seen.schools.values()]).slice().sort(byName);

  // The batch's abilities; a diploma of it is also sent or revoked only while not revoked itself.
  const mayDownload = batch.abilities.download_one;
  const mayMail = batch.abilities.share_by_email;
  const mayRevoke = batch.abilities.revoke;
  const filtered = searchText.trim() !== '' || filter.centre !== null || filter.institution !== null;
  const caption = t('batch.candidates.caption', { name: generationLabel(t, batch) });

  async function download(item: GenerationItemView) {
    setDownloading(item.id);
    try {
      await downloadDiplomaPdf(item);
      // The server counts downloads.
      void queryClient.invalidateQueries({ queryKey: ['generations', 'one', batch.id] });
    } catch (error) {
      flash.pushText(isApiError(error) ? error.message : t('errors.generic'), 'error');
    } finally {
      setDownloading(null);
    }
  }

  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });

  return (
    <section className="stack" aria-labelledby="batch-candidates">
      <h2 id="batch-candidates" className="section__title section__title--left">
        {t('batch.candidates.title')}
      </h2>

      <div className="card toolbar" role="search" aria-label={t('batch.candidates.filters')}>
        <div className="field">
          <label className="field__label" htmlFor="candidates-search">
            {t('batch.candidates.search')}
          </label>
          <input id="candidates-search" type="search" value={searchText} onChange={(event) => onSearch(event.target.value)} placeholder={t('batch.candidates.searchPlaceholder')} />
        </div>
        {fixedCentre === null ? (
          <div className="field">
            <label className="field__label" htmlFor="candidates-centre">
              {t('batch.candidates.centre')}
            </label>
            <select
              id="candidates-centre"
              value={filter.centre ?? ''}
              onChange={(event) => onFilter({ centre: event.target.value ? Number(event.target.value) : null, institution: null })}
            >
              <option value="">{t('batch.candidates.anyCentre')}</option>
              {centreOptions.map((centre) => (
                <option key={centre.id} value={centre.id}>
                  {centre.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {batch.institution ? null : (
          <div className="field">
            <label className="field__label" htmlFor="candidates-school">
              {t('batch.candidates.school')}
            </label>
            <select id="candidates-school" value={filter.institution ?? ''} onChange={(event) => onFilter({ institution: event.target.value ? Number(event.target.value) : null })}>
              <option value="">{t('batch.candidates.anySchool')}</option>
              {schoolOptions.map((school) => (
                <option key={school.id} value={school.id}>
                  {school.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      {items.length === 0 ? (
        <p className="card empty-state" data-testid="candidates-empty">
          {filtered ? t('batch.candidates.noMatch') : t('batch.candidates.empty')}
        </p>
      ) : (
        <div className="table-wrap table-wrap--cards" role="region" aria-label={caption} tabIndex={0}>
          <table className="table table--cards" aria-busy={busy}>
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t('batch.candidates.columns.candidate')}</th>
                <th scope="col">{t('batch.candidates.columns.school')}</th>
                <th scope="col">{t('batch.candidates.columns.percentage')}</th>
                <th scope="col">{t('batch.candidates.columns.validation')}</th>
                <th scope="col">{t('batch.candidates.columns.diploma')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('batch.candidates.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const name = candidateName(item);
                const diploma = item.diploma;
                return (
                  <tr key={item.id} data-testid={`candidate-row-${item.id}`}>
                    <th scope="row" data-label={t('batch.candidates.columns.candidate')}>
                      <strong className="cell-line">{name}</strong>
                      <span className="table__line muted">
                        {t('batch.candidates.code')} <code>{item.candidate_code}</code>
                      </span>
                    </th>
                    <td className="cell-wide" data-label={t('batch.candidates.columns.school')}>
                      <span className="cell-line">{item.option.name}</span>
                      <span className="cell-line">{item.institution.name}</span>
                      <span className="cell-line muted">{item.centre.name}</span>
                    </td>
                    <td data-label={t('batch.candidates.columns.percentage')}>{percent.format(item.percentage / 100)}</td>
                    <td data-label={t('batch.candidates.columns.validation')}>
                      <span className="badge-stack">
                        <ValidationBadge kind="photo" state={item.photo_status} />
                        <ValidationBadge kind="data" state={item.data_status} />
                        {item.rejected ? <span className="badge badge--danger">{t('batch.candidates.rejected')}</span> : null}
                      </span>
                      {item.rejected && item.rejection_reason ? <span className="cell-line muted">{item.rejection_reason}</span> : null}
                    </td>
                    <td data-label={t('batch.candidates.columns.diploma')}>
                      {diploma ? (
                        <>
                          {diploma.revoked ? (
                            <span className="badge badge--danger" data-testid="diploma-revoked">
                              {t('batch.candidates.revoked')}
                            </span>
                          ) : (
                            <span className="badge badge--info">{t('batch.candidates.issued')}</span>
                          )}
                          <span className="cell-line muted">{t('batch.candidates.downloads', { count: diploma.downloads })}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="table__actions">
                      {diploma ? (
                        <div className="row-actions">
                          <Link
                            className="button button--ghost button--small"
                            to={`/verify/${diploma.id}`}
                            target="_blank"
                            rel="noopener"
                            aria-label={`${t('batch.candidates.verifyOf', { name })} ${t('common.newTab')}`}
                          >
                            {t('batch.candidates.verify')}
                          </Link>
                          {mayDownload && diploma.has_pdf ? (
                            <button
                              type="button"
                              className="button button--secondary button--small"
                              onClick={() => void download(item)}
                              disabled={downloading === item.id}
                              aria-busy={downloading === item.id}
                              aria-label={t('batch.candidates.downloadOf', { name })}
                            >
                              {downloading === item.id ? t('batch.candidates.downloading') : t('batch.candidates.download')}
                            </button>
                          ) : null}
                          {mayMail && diploma.has_pdf && !diploma.revoked ? (
                            <button
                              type="button"
                              className="button button--secondary button--small"
                              onClick={() => setMailing(item)}
                              aria-label={t('distribution.mail.diplomaButtonOf', { name })}
                            >
                              {t('distribution.mail.diplomaButton')}
                            </button>
                          ) : null}
                          {mayRevoke && !diploma.revoked ? (
                            <button
                              type="button"
                              className="button button--danger button--small"
                              onClick={() => setRevoking(item)}
                              aria-label={t('batch.candidates.revokeOf', { name })}
                            >
                              {t('batch.candidates.revoke')}
                            </button>
                          ) : null}
                        </div>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <Pagination meta={items.length > 0 ? meta : undefined} onPage={onPage} label={t('batch.candidates.pagination')} />

      <ShareByMailDialog
        open={mailing !== null}
        title={t('distribution.mail.diplomaTitle')}
        description={mailing ? t('distribution.mail.diplomaText', { name: candidateName(mailing), code: mailing.candidate_code }) : ''}
        onSend={(email) => sendDiplomaByMail(mailing!.id, email)}
        onSent={(message) => {
          flash.pushText(message, 'success');
          setMailing(null);
        }}
        onClose={() => setMailing(null)}
      />
      <RevokeDialog
        open={revoking !== null}
        title={t('revocation.diplomaTitle')}
        description={revoking ? t('revocation.diplomaText', { name: candidateName(revoking), code: revoking.candidate_code }) : ''}
        confirmLabel={t('revocation.diplomaConfirm')}
        onRevoke={(reason) => revokeDiploma.mutateAsync({ diplomaId: revoking!.diploma!.id, reason })}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}

function ValidationBadge({ kind, state }: { kind: 'photo' | 'data'; state: GenerationItemView['photo_status'] }) {
  const { t } = useTranslation();
  const tone = state === 'validated' ? 'badge--info' : state === 'rejected' ? 'badge--danger' : 'badge--warning';
  return (
    <span className={`badge ${tone}`} data-validation={`${kind}-${state}`}>
      {t('batch.candidates.validation.pair', { kind: t(`batch.candidates.validation.${kind}`), state: t(`batch.candidates.validation.states.${state}`) })}
    </span>
  );
}
