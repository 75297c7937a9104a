import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhoneInput, type PhoneInputState } from '@/components/phone-input';
import { useDocumentTitle } from '@/lib/use-document-title';

/** The phone input on its own, with what it outputs and tracks (spec section 5). */
export function PhoneTestPage() {
  const { t } = useTranslation();
  const title = t('phoneTest.title');
  useDocumentTitle(title);
  const [state, setState] = useState<PhoneInputState | null>(null);

  const rows = [
    { key: 'phoneTest.output', value: state?.value ?? '—' },
    { key: 'phoneTest.focused', value: state?.focused ? t('common.yes') : t('common.no') },
    { key: 'phoneTest.valid', value: state?.valid ? t('common.yes') : t('common.no') },
    { key: 'phoneTest.error', value: state?.error ? t(`errors:${state.error}`, state.errorParams) : '—' },
  ] as const;

  return (
    <div className="container page stack">
      <header>
        <h1>{title}</h1>
        <p className="muted">{t('phoneTest.intro')}</p>
      </header>
      <section className="card phone-test" aria-labelledby="phone-test-form">
        <h2 id="phone-test-form">{t('phoneTest.try')}</h2>
        <PhoneInput id="phone-test" label={t('phone.label')} hint={t('phone.hint')} onChange={(_value, next) => setState(next)} />
      </section>
      <section className="card" aria-labelledby="phone-test-state">
        <h2 id="phone-test-state">{t('phoneTest.state')}</h2>
        <dl className="state-list" aria-live="polite">
          {rows.map((row) => (
            <div key={row.key} className="state-list__item">
              <dt>{t(row.key)}</dt>
              <dd data-testid={row.key}>
                <code>{row.value}</code>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
