import { useTranslation } from 'react-i18next';
import { useOffline } from '@/lib/online';
import '@/app/offline-banner.css';

/** A line under the header while the browser is offline: what still works and what does not. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const offline = useOffline();
  // Rendered only while offline: a live region always present would be one more "status" on every page.
  if (!offline) return null;
  return (
    <p role="status" className="offline-notice" data-testid="network-offline">
      {t('errors.offline')}
    </p>
  );
}
