import { BATCH_HISTORY_KINDS, type BatchHistoryEntryView, type BatchHistoryKind, type GenerationView } from '@sceau/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { Pagination } from '@/components/pagination';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { formatDateTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useApiQuery } from '@/lib/query';
import { dynamicKey, translate } from '@/lib/text-keys';

export const BATCH_HISTORY_PAGE_SIZE = 20;

/**
 * A page of the history. Every batch mutation invalidates `['generations', …]`, this included; the
 * batch's own moves (generation, anchoring: jobs, not this page's doing) are in `stage`.
 */
function useBatchHistory(id: number, stage: string, filter: { page: number; kind: BatchHistoryKind | '' }) {
  return useApiQuery({
    queryKey: ['generations', 'history', id, stage, filter],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.call(endpoints.generations.history, {
        signal,
        params: { id },
        query: { page: filter.page, per_page: BATCH_HISTORY_PAGE_SIZE, ...(filter.kind ? { kind: filter.kind } : {}) },
      }),
  });
}

/** An audit action in words (the catalogue's `audit.actions`, shared with the national log); the code when it has none. */
export function auditActionLabel(t: TFunction, action: string): string {
  return translate(t, dynamicKey(`audit.actions.${action}`), { defaultValue: action });
}

const statusWord = (t: TFunction, family: 'status' | 'signature', value: unknown) =>
  typeof value === 'string' ? translate(t, dynamicKey(`generations.${family}.${value}`), { defaultValue: value }) : '';

/** The line under an entry: what changed, in the reader's language, from the few facts the API sends. */
function entryFacts(t: TFunction, entry: BatchHistoryEntryView): string | null {
  const d = entry.details;
  const number = (key: string) => (typeof d[key] === 'number' ? (d[key] as number) : null);
  switch (entry.action) {
    case 'generation.status_changed':
      return t('batch.history.facts.move', { from: statusWord(t, 'status', d.from), to: statusWord(t, 'status', d.to) });
    case 'generation.signature_status_changed':
      return t('batch.history.facts.move', { from: statusWord(t, 'signature', d.from), to: statusWord(t, 'signature', d.to) });
    case 'generation.draft_created':
    case 'generation.list_replaced':
    case 'generation.import_started':
      return number('rows') === null ? null : t('batch.history.facts.rows', { count: number('rows') ?? 0, errors: number('errors') ?? 0 });
    case 'generation.broadcast_requested':
      return number('candidates') === null ? null : t('batch.history.facts.candidates', { count: number('candidates') ?? 0 });
    case 'generation.exported':
    case 'generation.archive_mailed':
      return number('files') === null ? null : t('batch.history.facts.files', { count: number('files') ?? 0 });
    case 'generation.signatures_chosen':
      return typeof d.signatures === 'string' && d.signatures ? t('batch.history.facts.signatures', { kinds: d.signatures }) : null;
    case 'validation.photo_validated_all':
    case 'validation.data_validated_all':
      return t('batch.history.facts.candidates', { count: number('count') ?? 0 });
    case 'validation.data_validated':
      return typeof d.fields === 'string' && d.fields ? t('batch.history.facts.fields', { fields: d.fields }) : null;
    default:
      return typeof d.reason === 'string' && d.reason ? t('batch.history.facts.reason', { reason: d.reason }) : null;
  }
}

function actorName(t: TFunction, entry: BatchHistoryEntryView): string {
  if (entry.actor) return entry.actor;
  return entry.actor_kind === 'candidate' ? t('batch.history.candidate') : t('batch.history.platform');
}

/**
 * A batch's history on its page (issue 15 item 6, ADR 0149): who did what and when, newest first,
 * by part, in the reader's language. Shown to the batch's staff (the `view_history` ability the
 * API sends; the API enforces it).
 */
export function BatchHistory({ batch }: { batch: Pick<GenerationView, 'id' | 'status' | 'signature_status'> }) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n);
  const [filter, setFilter] = useState<{ page: number; kind: BatchHistoryKind | '' }>({ page: 1, kind: '' });
  const history = useBatchHistory(batch.id, `${batch.status}/${batch.signature_status}`, filter);
  const entries = history.data?.data ?? [];

  return (
    <section className="card stack" aria-labelledby="batch-history" data-testid="batch-history">
      <h2 id="batch-history">{t('batch.history.title')}</h2>
      <p className="muted">{t('batch.history.intro')}</p>
      <div className="field">
        <label className="field__label" htmlFor="batch-history-kind">
          {t('batch.history.kind')}
        </label>
        <select id="batch-history-kind" value={filter.kind} onChange={(event) => setFilter({ page: 1, kind: event.target.value as BatchHistoryKind | '' })}>
          <option value="">{t('batch.history.kinds.all')}</option>
          {BATCH_HISTORY_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`batch.history.kinds.${kind}`)}
            </option>
          ))}
        </select>
      </div>
      {history.isError ? (
        <ErrorAlert error={history.error} onRetry={() => void history.refetch()} />
      ) : history.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : entries.length === 0 ? (
        <p data-testid="batch-history-empty">{t('batch.history.empty')}</p>
      ) : (
        <ol className="history-list" aria-busy={history.isFetching}>
          {entries.map((entry) => {
            const facts = entryFacts(t, entry);
            return (
              <li key={entry.id} className="history-list__entry" data-action={entry.action}>
                <p>
                  <strong>{auditActionLabel(t, entry.action)}</strong>
                  {entry.candidate_code ? (
                    <>
                      {' · '}
                      <span>{t('batch.history.candidateCode', { code: entry.candidate_code })}</span>
                    </>
                  ) : null}
                </p>
                {facts ? <p className="history-list__facts">{facts}</p> : null}
                <p className="muted">
                  <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time> · {actorName(t, entry)}
                </p>
              </li>
            );
          })}
        </ol>
      )}
      <Pagination meta={history.data?.meta} onPage={(page) => setFilter((f) => ({ ...f, page }))} label={t('batch.history.pagination')} />
    </section>
  );
}
