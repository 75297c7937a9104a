import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';

type Phase = 'idle' | 'running' | 'finishing';

/** A thin bar at the top while a navigation loads its page chunk and runs its guard. */
export function ProgressBar() {
  const { t } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (busy) {
      setPhase('running');
      return;
    }
    setPhase((current) => (current === 'running' ? 'finishing' : current));
    const timer = window.setTimeout(() => setPhase('idle'), 300);
    return () => window.clearTimeout(timer);
  }, [busy]);

  if (phase === 'idle') return null;
  return (
    <div className={`progress-bar progress-bar--${phase}`} role="progressbar" aria-label={t('common.loadingPage')} aria-busy={phase === 'running'}>
      <span className="progress-bar__fill" />
    </div>
  );
}
