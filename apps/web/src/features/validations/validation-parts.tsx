import type { ItemValidationState, ValidationBatchView, ValidationItemView } from '@sceau/contracts';
import type { TFunction } from 'i18next';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '@/lib/app-routes';
import { Dialog } from '@/components/dialog';
import { GenerationStatusBadge } from '@/components/generation-status';
import { useFlashStore } from '@/lib/flash-context';
import { failureMessage, keyMessage, useMessageText, type Message } from '@/lib/message';
import { translate, type TextKey } from '@/lib/text-keys';
import { useGrants } from '@/lib/session-context';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { fetchItemPhoto, useValidationFilters, VALIDATION_PAGE_SIZE, type ChangeResult, type ValidationItemsFilter } from '@/features/validations/validations-api';

export { candidateName } from '@/lib/candidate-name';

/** A batch's title, else its session and province. */
export function batchLabel(batch: Pick<ValidationBatchView, 'title' | 'session' | 'province'>): string {
  return batch.title?.trim() || `${batch.session.name} · ${batch.province.name}`;
}

/** The list's filters, with a debounced search; any change goes back to the first page. */
export function useValidationFilter() {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [rest, setRest] = useState<Omit<ValidationItemsFilter, 'search'>>({ page: 1, institution: null, centre: null, option: null, status: null, perPage: VALIDATION_PAGE_SIZE });
  const [searchedFor, setSearchedFor] = useState(search);
  if (searchedFor !== search) {
    setSearchedFor(search);
    setRest((f) => ({ ...f, page: 1 }));
  }
  const filter: ValidationItemsFilter = { ...rest, search };
  return {
    filter,
    searchText,
    setSearchText,
    setFilter: (next: Partial<Omit<ValidationItemsFilter, 'search' | 'page' | 'perPage'>>) => setRest((f) => ({ ...f, ...next, page: 1 })),
    setPage: (page: number) => setRest((f) => ({ ...f, page })),
    setPerPage: (perPage: number) => setRest((f) => ({ ...f, perPage, page: 1 })),
    filtered: searchText.trim() !== '' || rest.institution !== null || rest.centre !== null || rest.option !== null || rest.status !== null,
  };
}

export function ValidationStateBadge({ kind, state }: { kind: 'photo' | 'data'; state: ItemValidationState }) {
  const { t } = useTranslation();
  const tone = state === 'validated' ? 'badge--info' : state === 'rejected' ? 'badge--danger' : 'badge--warning';
  return (
    <span className={`badge ${tone}`} data-validation={`${kind}-${state}`}>
      {t('batch.candidates.validation.pair', { kind: t(`batch.candidates.validation.${kind}`), state: t(`batch.candidates.validation.states.${state}`) })}
    </span>
  );
}

/** The batch: title, status, where its candidates stand, and whether changes are still possible. */
export function ValidationHeader({ batch, titleKey, aspect }: { batch: ValidationBatchView; titleKey: TextKey; aspect: 'photos' | 'data' | null }) {
  const { t } = useTranslation();
  const counts = aspect ? batch.counts[aspect] : batch.counts.candidates;
  return (
    <header className="page-header" data-testid="validation-header">
      <div>
        <h1>{translate(t, titleKey)}</h1>
        <p className="lead">
          <Link to={`/show/${batch.id}`}>{batchLabel(batch)}</Link>
        </p>
        <p className="muted">{[batch.session.name, batch.province.name, batch.centre?.name, batch.institution?.name].filter(Boolean).join(' · ')}</p>
        <p className="badge-stack">
          <GenerationStatusBadge status={batch.status} />
          <span className="badge badge--warning" data-testid="count-pending">
            {t('validations.counts.pending', { count: counts.pending })}
          </span>
          <span className="badge badge--info" data-testid="count-validated">
            {t('validations.counts.validated', { count: counts.validated })}
          </span>
          <span className="badge badge--danger" data-testid="count-rejected">
            {t('validations.counts.rejected', { count: counts.rejected })}
          </span>
        </p>
      </div>
      {!batch.open ? (
        <p className="alert alert--info" data-testid="validation-closed">
          {t('validations.closed')}
        </p>
      ) : null}
    </header>
  );
}

/** A batch absent or outside the user's scope (404), under the page's own title. */
export function BatchNotFound({ titleKey }: { titleKey: TextKey }) {
  const { t } = useTranslation();
  return (
    <section className="container page stack" aria-labelledby="validation-not-found" data-testid="batch-not-found">
      <h1>{translate(t, titleKey)}</h1>
      <div className="card coming-soon__card">
        <h2 id="validation-not-found">{t('batch.notFound.title')}</h2>
        <p className="lead">{t('batch.notFound.text')}</p>
        <Link className="button button--secondary" to="/validated">
          {t('validations.backToList')}
        </Link>
      </div>
    </section>
  );
}

export interface FiltersProps {
  batch: ValidationBatchView;
  controls: ReturnType<typeof useValidationFilter>;
  /** The rejected list has neither option nor status filters. */
  full: boolean;
}

/** Search, and the schools, centres and options actually present among the batch's candidates. */
export function ValidationFilters({ batch, controls, full }: FiltersProps) {
  const { t } = useTranslation();
  const choices = useValidationFilters(batch.id).data ?? { institutions: [], centres: [], options: [] };
  const { filter, setFilter } = controls;
  const number = (value: string) => (value ? Number(value) : null);
  return (
    <div className="card toolbar" role="search" aria-label={t('validations.filters.label')}>
      <div className="field">
        <label className="field__label" htmlFor="validation-search">
          {t('validations.filters.search')}
        </label>
        <input
          id="validation-search"
          type="search"
          value={controls.searchText}
          onChange={(e) => controls.setSearchText(e.target.value)}
          placeholder={t('validations.filters.searchPlaceholder')}
        />
      </div>
      {batch.centre ? null : (
        <div className="field">
          <label className="field__label" htmlFor="validation-centre">
            {t('validations.filters.centre')}
          </label>
          <select id="validation-centre" value={filter.centre ?? ''} onChange={(e) => setFilter({ centre: number(e.target.value) })}>
            <option value="">{t('validations.filters.anyCentre')}</option>
            {choices.centres.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {batch.institution ? null : (
        <div className="field">
          <label className="field__label" htmlFor="validation-school">
            {t('validations.filters.school')}
          </label>
          <select id="validation-school" value={filter.institution ?? ''} onChange={(e) => setFilter({ institution: number(e.target.value) })}>
            <option value="">{t('validations.filters.anySchool')}</option>
            {choices.institutions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {full ? (
        <>
          <div className="field">
            <label className="field__label" htmlFor="validation-option">
              {t('validations.filters.option')}
            </label>
            <select id="validation-option" value={filter.option ?? ''} onChange={(e) => setFilter({ option: number(e.target.value) })}>
              <option value="">{t('validations.filters.anyOption')}</option>
              {choices.options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor="validation-status">
              {t('validations.filters.status')}
            </label>
            <select id="validation-status" value={filter.status ?? ''} onChange={(e) => setFilter({ status: (e.target.value || null) as ItemValidationState | null })}>
              <option value="">{t('validations.filters.anyStatus')}</option>
              {(['pending', 'validated', 'rejected'] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`validations.states.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </>
      ) : null}
    </div>
  );
}

/** Asks for the reason of a rejection (required, 3 to 500 characters); shows the server's refusal. */
export function RejectDialog({ name, onReject, onClose }: { name: string | null; onReject: (reason: string) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reason is cleared whenever the dialog opens for another candidate (`name`).
  useEffect(() => {
    setReason('');
    setError(null);
  }, [name]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (reason.trim().length < 3) {
      setError(keyMessage('validations.reject.reasonRequired'));
      return;
    }
    setBusy(true);
    try {
      await onReject(reason.trim());
      onClose();
    } catch (failure) {
      setError(failureMessage(failure, 'reason'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={name !== null}
      title={t('validations.reject.title')}
      description={name ? t('validations.reject.text', { name }) : undefined}
      onClose={busy ? () => undefined : onClose}
    >
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className={error ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={id}>
            {t('validations.reject.reason')}
          </label>
          <textarea
            id={id}
            value={reason}
            maxLength={500}
            rows={3}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
            data-autofocus
          />
          {error ? (
            <p id={`${id}-error`} className="field__error">
              {messageText(error)}
            </p>
          ) : null}
        </div>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={busy} aria-busy={busy}>
            {t('validations.reject.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * What follows a change: the server's message, the candidates left aside (bulk), and once the batch
 * is ready for generation a notice leading to its launch (or its page).
 */
export function useChangeOutcome() {
  const flash = useFlashStore();
  const [ready, setReady] = useState<number | null>(null);
  return {
    ready,
    handle(result: ChangeResult) {
      flash.pushText(result.message, 'success');
      if (result.skipped.length > 0) flash.pushMessage(keyMessage('validations.skipped', { count: result.skipped.length }), 'error');
      setReady(result.generation.status === 'ready_for_generation' ? result.generation.id : null);
    },
    fail(error: unknown) {
      flash.pushMessage(failureMessage(error), 'error');
    },
  };
}

export function ReadyNotice({ generationId }: { generationId: number | null }) {
  const { t } = useTranslation();
  const grants = useGrants();
  if (generationId === null) return null;
  // The launch page's route guard; the launch page then reads the batch's abilities.
  const launch = mayOpen(grants, '/otp-generation/:id');
  return (
    <div className="alert alert--success" role="status" data-testid="validation-ready">
      <p>{t('validations.ready.text')}</p>
      <Link className="button button--small" to={launch ? `/otp-generation/${generationId}` : `/show/${generationId}`}>
        {launch ? t('validations.ready.launch') : t('validations.ready.show')}
      </Link>
    </div>
  );
}

/**
 * A candidate's photo fetched with the token, as an object URL (revoked when the photo changes or
 * the card goes). Only the cards shown, one page, ask for theirs.
 */
export function usePhotoObjectUrl(item: Pick<ValidationItemView, 'id' | 'generation_id' | 'photo_url'>): { url: string | null; failed: boolean } {
  const { id, generation_id: generationId, photo_url: photoUrl } = item;
  const [state, setState] = useState<{ for: string | null; url: string | null; failed: boolean }>({ for: null, url: null, failed: false });
  useEffect(() => {
    if (!photoUrl) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchItemPhoto({ id, generation_id: generationId, photo_url: photoUrl }, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ for: photoUrl, url: objectUrl, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ for: photoUrl, url: null, failed: true });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id, generationId, photoUrl]);
  if (!photoUrl || state.for !== photoUrl) return { url: null, failed: false };
  return { url: state.url, failed: state.failed };
}

export function tState(t: TFunction, state: ItemValidationState) {
  return t(`validations.states.${state}`);
}

/**
 * The candidates ticked for a validation in bulk, among those that can be: `chosen` keeps the
 * list's order and forgets candidates that left it (a new page, a filter, a rejection).
 */
export function useSelection(selectable: readonly ValidationItemView[]) {
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const chosen = selectable.filter((i) => selected.has(i.id)).map((i) => i.id);
  return {
    chosen,
    allChosen: selectable.length > 0 && chosen.length === selectable.length,
    isSelected: (id: number) => selected.has(id),
    toggle: (id: number, on: boolean) =>
      setSelected((s) => {
        const next = new Set(s);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    selectAll: (on: boolean) => setSelected(on ? new Set(selectable.map((i) => i.id)) : new Set()),
    clear: () => setSelected(new Set()),
  };
}
