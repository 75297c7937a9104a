import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { currentLocale } from '@/lib/i18n';
import { useApiQuery } from '@/lib/query';

const COUNTERS = ['documents', 'students', 'schools', 'downloads'] as const;

/** The platform's public counters (spec: `GET metrics`, `data.data`); nothing is shown until they arrive. */
export function HomeCounters() {
  const { t, i18n } = useTranslation();
  const metrics = useApiQuery({
    queryKey: ['metrics'],
    queryFn: async ({ signal }) => (await api.call(endpoints.metrics.counters, { signal })).data.data,
  });
  if (!metrics.data) return null;
  const format = new Intl.NumberFormat(currentLocale(i18n));
  return (
    <section className="section counters" aria-labelledby="home-counters">
      <div className="container">
        <h2 id="home-counters" className="visually-hidden">
          {t('home.counters.title')}
        </h2>
        <dl className="counters__grid">
          {COUNTERS.map((key) => (
            <div key={key} className="counters__item" data-testid={`counter-${key}`}>
              <dt>{t(`home.counters.${key}`)}</dt>
              <dd>{format.format(metrics.data[key])}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
