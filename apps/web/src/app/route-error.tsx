import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';
import { isApiError } from '@/lib/http';

/** A page that could not load (chunk download failed, profile unreachable...). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isApiError(error) ? error.message : t('errors.generic');
  return (
    <section className="container page" aria-labelledby="route-error-title">
      <div className="card">
        <h1 id="route-error-title">{t('errors.pageTitle')}</h1>
        <p role="alert">{message}</p>
        <div className="actions">
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t('common.retry')}
          </button>
          <Link className="button button--secondary" to="/">
            {t('common.backHome')}
          </Link>
        </div>
      </div>
    </section>
  );
}
