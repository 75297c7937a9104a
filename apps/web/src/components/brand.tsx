import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { appConfig } from '@/lib/config';

export function Brand({ to = '/' }: { to?: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="brand" aria-label={t('brand.homeLink', { appName: appConfig.appName })}>
      <svg className="brand__seal" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <circle cx="32" cy="32" r="30" fill="currentColor" />
        <circle cx="32" cy="32" r="22" fill="none" stroke="var(--color-gold)" strokeWidth="3" />
        <path d="M22 33l7 7 14-16" fill="none" stroke="#fff" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="brand__text">
        <span className="brand__name">{appConfig.appName}</span>
        <span className="brand__tagline">{t('brand.taglineIssuer', { issuer: appConfig.issuer.shortName })}</span>
      </span>
    </Link>
  );
}
