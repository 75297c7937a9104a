import type { GenerationStats, IssuedCounts } from '@sceau/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/error-alert';
import { useGenerationStats } from '@/features/dashboard/dashboard-api';
import { useExamSessions } from '@/features/reference-data/reference-data-api';
import { currentLocale } from '@/lib/i18n';
import './issued-charts.css';

interface ChartRow {
  key: string;
  label: string;
  counts: IssuedCounts;
}

/** Diplomas split into the three parts a bar shows, in this order. */
const PARTS = ['published', 'revoked', 'unpublished'] as const;
type Part = (typeof PARTS)[number];

function parts(counts: IssuedCounts): Record<Part, number> {
  return { published: counts.published, revoked: counts.revoked, unpublished: Math.max(0, counts.diplomas - counts.published - counts.revoked) };
}

/**
 * A horizontal bar chart drawn with CSS from the figures (ADR 0085): each row names its figures in
 * text, the bars only repeat them for the eye (hidden from assistive technologies), and the whole
 * chart is also a table under "Voir le tableau".
 */
function BarChart({ title, rows, measure, testId }: { title: string; rows: ChartRow[]; measure: 'diplomas' | 'batches'; testId: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const number = new Intl.NumberFormat(currentLocale(i18n));
  const max = Math.max(1, ...rows.map((row) => row.counts[measure]));
  const percent = (value: number) => `${(value / max) * 100}%`;
  return (
    <figure className="card chart" aria-labelledby={`${id}-title`} data-testid={testId}>
      <figcaption>
        <h3 id={`${id}-title`} className="chart__title">
          {title}
        </h3>
      </figcaption>
      {measure === 'diplomas' ? (
        <ul className="chart__legend" aria-hidden="true">
          {PARTS.map((part) => (
            <li key={part}>
              <span className={`chart__swatch chart__swatch--${part}`} />
              {t(`dashboard.issued.parts.${part}`)}
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="chart__rows">
        {rows.map((row) => (
          <li key={row.key} className="chart__row" data-testid={`${testId}-${row.key}`}>
            <span className="chart__label">{row.label}</span>
            <span className="chart__track" aria-hidden="true">
              {measure === 'diplomas' ? (
                PARTS.map((part) => {
                  const value = parts(row.counts)[part];
                  return value > 0 ? <span key={part} className={`chart__bar chart__bar--${part}`} style={{ width: percent(value) }} /> : null;
                })
              ) : (
                <span className="chart__bar chart__bar--batches" style={{ width: percent(row.counts.batches) }} />
              )}
            </span>
            <span className="chart__value">
              {measure === 'diplomas'
                ? t('dashboard.issued.diplomasLine', {
                    count: row.counts.diplomas,
                    diplomas: number.format(row.counts.diplomas),
                    published: number.format(row.counts.published),
                    revoked: number.format(row.counts.revoked),
                  })
                : t('dashboard.issued.batchesLine', { count: row.counts.batches, batches: number.format(row.counts.batches), diplomas: number.format(row.counts.diplomas) })}
            </span>
          </li>
        ))}
      </ul>
      <details className="chart__table">
        <summary>{t('dashboard.issued.showTable')}</summary>
        <div className="table-wrap" role="region" aria-label={title} tabIndex={0}>
          <table className="table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('dashboard.issued.columns.label')}</th>
                <th scope="col">{t('dashboard.issued.columns.batches')}</th>
                <th scope="col">{t('dashboard.issued.columns.diplomas')}</th>
                <th scope="col">{t('dashboard.issued.columns.published')}</th>
                <th scope="col">{t('dashboard.issued.columns.revoked')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.label}</th>
                  <td>{number.format(row.counts.batches)}</td>
                  <td>{number.format(row.counts.diplomas)}</td>
                  <td>{number.format(row.counts.published)}</td>
                  <td>{number.format(row.counts.revoked)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function Totals({ totals }: { totals: IssuedCounts }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(currentLocale(i18n));
  return (
    <ul className="counters" aria-label={t('dashboard.issued.totals')}>
      {(['batches', 'diplomas', 'published', 'revoked'] as const).map((key) => (
        <li key={key} className="counter" data-testid={`issued-total-${key}`}>
          <span className="counter__value">{number.format(totals[key])}</span> <span className="counter__label">{t(`dashboard.issued.total.${key}`)}</span>
        </li>
      ))}
    </ul>
  );
}

function Charts({ stats }: { stats: GenerationStats }) {
  const { t } = useTranslation();
  if (stats.totals.batches === 0) {
    return (
      <p className="card empty-state" data-testid="issued-empty">
        {stats.session ? t('dashboard.issued.emptySession', { session: stats.session.name }) : t('dashboard.issued.empty')}
      </p>
    );
  }
  return (
    <>
      <Totals totals={stats.totals} />
      <div className="chart-grid">
        <BarChart
          title={t('dashboard.issued.bySession')}
          measure="diplomas"
          testId="chart-session"
          rows={stats.by_session.map((row) => ({ key: String(row.session.id), label: row.session.name, counts: row }))}
        />
        <BarChart
          title={t('dashboard.issued.byProvince')}
          measure="diplomas"
          testId="chart-province"
          rows={stats.by_province.map((row) => ({ key: String(row.province.id), label: row.province.name, counts: row }))}
        />
        <BarChart
          title={t('dashboard.issued.byStatus')}
          measure="batches"
          testId="chart-status"
          rows={stats.by_status.filter((row) => row.batches > 0).map((row) => ({ key: row.status, label: t(`generations.status.${row.status}`), counts: row }))}
        />
      </div>
    </>
  );
}

/** The dashboard's charts: what the user's scope has issued, by session, educational province and status. */
export function IssuedCharts() {
  const { t } = useTranslation();
  const [session, setSession] = useState<number | null>(null);
  const stats = useGenerationStats(session);
  const sessions = useExamSessions();
  return (
    <section className="stack issued" aria-labelledby="issued-title" data-testid="issued-charts">
      <div className="page-header">
        <div>
          <h2 id="issued-title" className="section__title section__title--left">
            {t('dashboard.issued.title')}
          </h2>
          <p className="muted">{t('dashboard.issued.intro')}</p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="issued-session">
            {t('dashboard.issued.session')}
          </label>
          <select id="issued-session" value={session ?? ''} onChange={(event) => setSession(event.target.value ? Number(event.target.value) : null)}>
            <option value="">{t('dashboard.batches.anySession')}</option>
            {(sessions.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorAlert error={stats.error} onRetry={() => void stats.refetch()} />
      {stats.data ? (
        <div aria-busy={stats.isFetching}>
          <Charts stats={stats.data} />
        </div>
      ) : stats.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : null}
    </section>
  );
}
