import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Brand } from '@/components/brand';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.subtitle'));
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <Brand />
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">
        <span className="visually-hidden">{t('notFound.title')} — </span>
        {t('notFound.subtitle')}
      </h1>
      <p className="not-found__description">{t('notFound.description')}</p>
      <Link className="button button--large" to="/">
        {t('notFound.back')}
      </Link>
    </section>
  );
}
