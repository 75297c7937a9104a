import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readSessionValue, writeSessionValue } from '@/lib/storage';
import { PHONE_QUERY, useMediaQuery } from '@/lib/use-media-query';

const DISMISSED_KEY = 'device-notice-dismissed';

/** On a phone inside the back office: the back office is easier on a larger screen. */
export function DeviceNotice() {
  const { t } = useTranslation();
  const isPhone = useMediaQuery(PHONE_QUERY);
  const [dismissed, setDismissed] = useState(() => readSessionValue(DISMISSED_KEY) === '1');
  if (!isPhone || dismissed) return null;
  return (
    <div className="device-notice" role="note">
      <p>{t('deviceNotice.text')}</p>
      <button
        type="button"
        className="button button--small button--ghost"
        onClick={() => {
          writeSessionValue(DISMISSED_KEY, '1');
          setDismissed(true);
        }}
      >
        {t('deviceNotice.dismiss')}
      </button>
    </div>
  );
}
