import type { GenerationItemView, GenerationView } from '@sceau/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { generationLabel } from '@/components/generation-status';
import { Pagination } from '@/components/pagination';
import { downloadDiplomaPdf, useRevokeDiploma, type GenerationItemsFilter } from '@/features/generations/generations-api';
import { downloadSpecimen } from '@/features/generations/launch-api';
import { RevokeDialog } from '@/features/generations/revoke-dialog';
import { sendDiplomaByMail } from '@/features/generations/distribution-api';
import { ShareByMailDialog } from '@/features/generations/share-by-mail-dialog';
import { useCentresOfProvince, useInstitutionsOfCentre } from '@/features/reference-data/reference-data-api';
import { useFlashStore } from '@/lib/flash-context';
import { failureMessage } from '@/lib/message';
import { currentLocale } from '@/lib/i18n';
import { candidateName } from '@/lib/candidate-name';

type Batch = GenerationView;
type Named = { id: number; name: string };

function byName(a: Named, b: Named): number {
  return a.name.localeCompare(b.name);
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

export function CandidatesSection({ batch, items, meta, busy, searchText, onSearch, filter, onFilter, onPage }: CandidatesSectionProps) {
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
  // Before its diploma exists, a candidate's "SPÉCIMEN" preview, for those who may launch.
  const mayPreview = batch.abilities.preview;
  const [previewing, setPreviewing] = useState<number | null>(null);

  async function specimen(item: GenerationItemView) {
    setPreviewing(item.id);
    try {
      await downloadSpecimen(batch.id, { itemId: item.id });
    } catch (error) {
      flash.pushMessage(failureMessage(error), 'error');
    } finally {
      setPreviewing(null);
    }
  }
  const filtered = searchText.trim() !== '' || filter.centre !== null || filter.institution !== null;
  const caption = t('batch.candidates.caption', { name: generationLabel(t, batch) });

  async function download(item: GenerationItemView) {
    setDownloading(item.id);
    try {
      await downloadDiplomaPdf(item);
      // The server counts downloads.
      void queryClient.invalidateQueries({ queryKey: ['generations', 'one', batch.id] });
    } catch (error) {
      flash.pushMessage(failureMessage(error), 'error');
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
                          {diploma.serial ? (
                            <span className="cell-line" data-testid="diploma-serial">
                              <span className="visually-hidden">{t('batch.candidates.serial')} </span>
                              <code>{diploma.serial}</code>
                            </span>
                          ) : null}
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
                      ) : mayPreview && !item.rejected ? (
                        <div className="row-actions">
                          <button
                            type="button"
                            className="button button--ghost button--small"
                            onClick={() => void specimen(item)}
                            disabled={previewing === item.id}
                            aria-busy={previewing === item.id}
                            aria-label={t('batch.candidates.specimenOf', { name })}
                          >
                            {previewing === item.id ? t('launch.specimenLoading') : t('batch.candidates.specimen')}
                          </button>
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
