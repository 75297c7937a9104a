import { useTranslation } from 'react-i18next';
import { appConfig } from '@/lib/config';
import { useDocumentTitle } from '@/lib/use-document-title';

/** A short legal text: a title, an intro and numbered sections, all from the catalogue. */
export function LegalPage({ prefix, sections }: { prefix: 'terms' | 'privacy'; sections: readonly string[] }) {
  const { t } = useTranslation();
  const values = { appName: appConfig.appName, email: appConfig.contactEmail };
  useDocumentTitle(t(`${prefix}.title`));
  return (
    <article className="container page prose" aria-labelledby="legal-title">
      <h1 id="legal-title">{t(`${prefix}.title`)}</h1>
      <p className="muted">{t('legal.updated')}</p>
      <p className="lead">{t(`${prefix}.intro`, values)}</p>
      {sections.map((section) => (
        <section key={section} aria-labelledby={`${prefix}-${section}`}>
          <h2 id={`${prefix}-${section}`}>{t(`${prefix}.sections.${section}.title`)}</h2>
          <p>{t(`${prefix}.sections.${section}.text`, values)}</p>
        </section>
      ))}
    </article>
  );
}
