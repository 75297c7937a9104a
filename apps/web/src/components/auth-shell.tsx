import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Brand } from '@/components/brand';
import { LanguageSelect } from '@/components/language-select';

/** The frame of the header-less authentication screens: brand, language, a card, a way home. */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="auth-shell">
      <div className="auth-shell__top">
        <Brand />
        <LanguageSelect />
      </div>
      <section className="card auth-shell__card" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
        {children}
      </section>
      <p className="auth-shell__back">
        <Link to="/">{t('common.backHome')}</Link>
      </p>
    </div>
  );
}
