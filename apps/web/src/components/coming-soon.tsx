import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthShell } from '@/components/auth-shell';
import { useDocumentTitle } from '@/lib/use-document-title';

export interface ComingSoonProps {
  /** Translation key of the page's name. */
  titleKey: string;
  /** Translation key of one sentence saying what the page will do. */
  descriptionKey: string;
  backTo?: '/' | '/dashboard';
  /** The header-less authentication screens use their own frame. */
  variant?: 'page' | 'auth';
}

/** Placeholder of a page whose route and guard are final but whose content comes in a later step. */
export function ComingSoon({ titleKey, descriptionKey, backTo = '/', variant = 'page' }: ComingSoonProps) {
  const { t } = useTranslation();
  const title = t(titleKey);
  useDocumentTitle(title);

  const body = (
    <>
      <span className="badge badge--info">{t('comingSoon.badge')}</span>
      <p className="lead">{t(descriptionKey)}</p>
      <p className="muted">{t('comingSoon.text')}</p>
    </>
  );

  if (variant === 'auth') return <AuthShell title={title}>{body}</AuthShell>;

  return (
    <section className="container page coming-soon" aria-labelledby="coming-soon-title">
      <div className="card coming-soon__card">
        <h1 id="coming-soon-title">{title}</h1>
        {body}
        <Link className="button button--secondary" to={backTo}>
          {backTo === '/' ? t('common.backHome') : t('common.backDashboard')}
        </Link>
      </div>
    </section>
  );
}
