import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signInWithGoogle } from '@/features/auth/auth-api';
import { currentLocale } from '@/lib/i18n';
import { failureMessage, keyMessage, useMessageText, type Message } from '@/lib/message';
import { useSessionStore } from '@/lib/session-context';

export const GOOGLE_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void; ux_mode?: 'popup' }): void;
      renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptLoading: Promise<GoogleIdentity> | null = null;

/** Google Identity Services, loaded once and only where the button is shown. */
function loadGoogleIdentity(): Promise<GoogleIdentity> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google);
  if (scriptLoading) return scriptLoading;
  scriptLoading = new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () => (window.google ? resolve(window.google) : reject(new Error('Google Identity Services missing')));
    script.onerror = () => {
      scriptLoading = null;
      script.remove();
      reject(new Error('Google Identity Services failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptLoading;
}

/**
 * "Continue with Google" (spec section 7, POST /auth/byGoogle): Google's own button gives an ID
 * token, which the server verifies. Shown only when a Google client id is configured.
 */
export function GoogleSignIn({ clientId, onSignedIn }: { clientId: string | null; onSignedIn: () => void | Promise<void> }) {
  const { t, i18n } = useTranslation();
  const session = useSessionStore();
  const queryClient = useQueryClient();
  const buttonRef = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<Message | null>(null);
  const messageText = useMessageText();
  const [busy, setBusy] = useState(false);
  const onSignedInRef = useRef(onSignedIn);
  onSignedInRef.current = onSignedIn;
  const locale = currentLocale(i18n);

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadGoogleIdentity()
      .then((google) => {
        if (cancelled || !buttonRef.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (response) => {
            if (!response.credential) return;
            setBusy(true);
            setError(null);
            signInWithGoogle(response.credential)
              .then(async (answer) => {
                session.signIn(answer);
                queryClient.clear();
                await onSignedInRef.current();
              })
              .catch((failure: unknown) => setError(failureMessage(failure)))
              .finally(() => setBusy(false));
          },
        });
        buttonRef.current.replaceChildren();
        google.accounts.id.renderButton(buttonRef.current, { type: 'standard', theme: 'outline', size: 'large', text: 'continue_with', locale, width: 280 });
      })
      .catch(() => {
        if (!cancelled) setError(keyMessage('google.unavailable'));
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, locale, session, queryClient]);

  if (!clientId) return null;
  return (
    <div className="google-sign-in" aria-busy={busy}>
      <p className="google-sign-in__or">
        <span>{t('google.or')}</span>
      </p>
      <div ref={buttonRef} className="google-sign-in__button" data-testid="google-button" />
      {error ? (
        <div className="alert alert--error" role="alert">
          {messageText(error)}
        </div>
      ) : null}
    </div>
  );
}
