import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlashes, useFlashStore } from '@/lib/flash-context';
import { useMessageText } from '@/lib/message';

const AUTO_DISMISS_MS = 8000;

/** Flash messages (e.g. the guards' refusals), shown at the top of the page content. */
export function Toaster() {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const flashes = useFlashes();
  const store = useFlashStore();

  useEffect(() => {
    if (flashes.length === 0) return;
    const timers = flashes.map((flash) => window.setTimeout(() => store.dismiss(flash.id), AUTO_DISMISS_MS));
    return () => {
      for (const timer of timers) window.clearTimeout(timer);
    };
  }, [flashes, store]);

  return (
    <div className="toaster" aria-live="polite">
      {flashes.map((flash) => (
        <div key={flash.id} className={`toast toast--${flash.tone}`} role={flash.tone === 'error' ? 'alert' : 'status'}>
          <span>{messageText(flash.message)}</span>
          <button type="button" className="toast__close" onClick={() => store.dismiss(flash.id)} aria-label={t('common.dismiss')}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
