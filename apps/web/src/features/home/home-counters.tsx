import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { formatInteger } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { useApiQuery } from '@/lib/query';

const COUNTERS = ['documents', 'students', 'schools', 'downloads'] as const;

/**
 * The platform's public counters (spec: `GET metrics`, `data.data`). While they load, their place is
 * kept (labels, blank values), so that the sections below do not move when they arrive (ADR 0131);
 * if they cannot be had, the section goes.
 */
export function HomeCounters() {
  const { t, i18n } = useTranslation();
  const metrics = useApiQuery({
    queryKey: ['metrics'],
    queryFn: async ({ signal }) => (await api.call(endpoints.metrics.counters, { signal })).data.data,
  });
  const data = metrics.data;
  if (!data && !metrics.isPending) return null;
  const locale = currentLocale(i18n);
  return (
    <section className="section counters" aria-labelledby="home-counters" aria-busy={data ? undefined : true}>
      <div className="container">
        <h2 id="home-counters" className="visually-hidden">
          {t('home.counters.title')}
        </h2>
        <dl className="counters__grid">
          {COUNTERS.map((key) => (
            <div key={key} className="counters__item" data-testid={data ? `counter-${key}` : undefined}>
              <dt>{t(`home.counters.${key}`)}</dt>
              <dd>{data ? formatInteger(data[key], locale) : '\u00a0'}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
