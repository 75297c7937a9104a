import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig, issuerName } from '@/lib/config';
import { dynamicKey, translate, type TextKey } from '@/lib/text-keys';
import { useDocumentTitle } from '@/lib/use-document-title';

type LegalText = 'terms' | 'privacy';

/** The sections of a legal text that the catalogue holds (those with a title). */
export type LegalSectionName<P extends LegalText> = TextKey extends infer K ? (K extends `${P}.sections.${infer S}.title` ? S : never) : never;

type LegalPageProps = { prefix: 'terms'; sections: readonly LegalSectionName<'terms'>[] } | { prefix: 'privacy'; sections: readonly LegalSectionName<'privacy'>[] };

interface LegalSection {
  title: string;
  paragraphs: string[];
  items?: string[];
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * A legal text from the catalogue: a title, an intro and numbered sections, each with paragraphs
 * and an optional list; a table of contents on top (these pages are long on a phone).
 */
export function LegalPage({ prefix, sections }: LegalPageProps) {
  const { t, i18n } = useTranslation();
  const values = { appName: appConfig.appName, email: appConfig.contactEmail, issuer: issuerName(i18n.language) };
  useDocumentTitle(t(`${prefix}.title`));
  const content: (LegalSection & { key: string })[] = sections.map((key: string) => {
    // The names are checked above (LegalSectionName); a section's list of items is optional.
    const base = `${prefix}.sections.${key}` as const;
    return {
      key,
      title: translate(t, dynamicKey(`${base}.title`)),
      paragraphs: asStrings(translate(t, dynamicKey(`${base}.paragraphs`), { ...values, returnObjects: true })),
      items: asStrings(translate(t, dynamicKey(`${base}.items`), { ...values, returnObjects: true, defaultValue: [] })),
    };
  });
  const other = prefix === 'privacy' ? { to: '/terms-and-conditions', label: t('footer.terms') } : { to: '/privacy-policy', label: t('footer.privacy') };

  return (
    <article className="container page prose legal-page" aria-labelledby="legal-title">
      <h1 id="legal-title">{t(`${prefix}.title`)}</h1>
      <p className="muted">{t('legal.updated')}</p>
      <p className="lead">{t(`${prefix}.intro`, values)}</p>
      <nav aria-labelledby={`${prefix}-toc`} className="legal-page__toc">
        <h2 id={`${prefix}-toc`}>{t('legal.contents')}</h2>
        <ol>
          {content.map((section) => (
            <li key={section.key}>
              <a href={`#${prefix}-${section.key}`}>{section.title.replace(/^\d+\.\s*/, '')}</a>
            </li>
          ))}
        </ol>
      </nav>
      {content.map((section) => (
        <section key={section.key} aria-labelledby={`${prefix}-${section.key}`} data-testid={`legal-${section.key}`}>
          <h2 id={`${prefix}-${section.key}`} tabIndex={-1}>
            {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items?.length ? (
            <ul>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
      <p>
        <Link to={other.to}>{other.label}</Link> · <Link to="/contact">{t('nav.contact')}</Link>
      </p>
    </article>
  );
}
