import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** What an account without any staff permission can do (a member of the public who registered). */
const ACTIONS = [
  { to: '/my-diplomas', key: 'myDiplomas' },
  { to: '/verification', key: 'verify' },
  { to: '/student-check', key: 'studentCheck' },
  { to: '/contact', key: 'contact' },
] as const;

export function PublicAccount({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <div className="container page">
      <section className="welcome" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title">{t('dashboard.welcome', { name })}</h1>
        <p className="muted">{t('dashboard.public.intro')}</p>
      </section>
      <section aria-labelledby="dashboard-actions">
        <h2 id="dashboard-actions" className="section__title section__title--left">
          {t('dashboard.public.actionsTitle')}
        </h2>
        <ul className="card-grid card-grid--fill">
          {ACTIONS.map((action) => (
            <li key={action.to}>
              <Link className="card card--link" to={action.to}>
                <h3>{t(`dashboard.public.${action.key}.title`)}</h3>
                <p>{t(`dashboard.public.${action.key}.text`)}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
