import { useTranslation } from 'react-i18next';

/** Shown while the first page's chunk and guard load. */
export function BootScreen() {
  const { t } = useTranslation();
  return (
    <div className="boot-screen" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{t('common.loading')}</span>
    </div>
  );
}
