import type { DirectAuthResponse } from '@sceau/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '@/lib/api';
import { endpoints } from '@/lib/endpoints';
import { isApiError } from '@/lib/http';
import { failureMessage, keyMessage, useMessageText, type Message } from '@/lib/message';
import { useSessionStore } from '@/lib/session-context';
import { saveToken } from '@/lib/storage';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * A link is good once: the exchange of a token is shared by every mount that asks for it (React's
 * development double effects, a re-render), so it is sent to the server exactly once.
 */
const exchanges = new Map<string, Promise<DirectAuthResponse>>();

function exchangeToken(token: string): Promise<DirectAuthResponse> {
  let pending = exchanges.get(token);
  if (!pending) {
    pending = api.call(endpoints.distribution.directAuth, { body: { token }, anonymous: true });
    // A failure that never reached the server may be tried again.
    pending.catch((error: unknown) => {
      if (isApiError(error) && error.status === 0) exchanges.delete(token);
    });
    exchanges.set(token, pending);
  }
  return pending;
}

/** A failure's message is written when shown: a language chosen afterwards applies to it. */
type State = { kind: 'working' } | { kind: 'failed'; message: Message; retry: boolean };

/**
 * `/direct-auth?token=…`: the one-time link a broadcast sends a candidate (it opens their diploma)
 * or an administrator sends a staff member (it signs them in and opens the dashboard).
 */
export function DirectAuthPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('directAuth.title'));
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const session = useSessionStore();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(() => (token ? { kind: 'working' } : { kind: 'failed', message: keyMessage('directAuth.missing'), retry: false }));
  const messageText = useMessageText();

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's trigger: a new attempt runs the sign-in again.
  useEffect(() => {
    if (!token) return;
    let current = true;
    (async () => {
      const answer = await exchangeToken(token);
      if (answer.kind === 'candidate') {
        if (current) await navigate(`/view-certificate?id=${encodeURIComponent(answer.diploma_id)}`, { replace: true });
        return;
      }
      // The profile is read with the new token, then the session is set as any sign-in sets it.
      saveToken(answer.access_token, false);
      const me = await api.call(endpoints.accounts.me);
      session.signIn({ access_token: answer.access_token, data: me.data.data });
      if (current) await navigate('/dashboard', { replace: true });
    })().catch((error: unknown) => {
      if (!current) return;
      if (isApiError(error) && error.status !== 0 && error.code !== 'validation_failed') session.clear();
      const message = failureMessage(error, 'token');
      setState({ kind: 'failed', message, retry: isApiError(error) && error.status === 0 });
    });
    return () => {
      current = false;
    };
  }, [token, attempt, navigate, session]);

  return (
    <section className="container page" aria-labelledby="direct-auth-title">
      <div className="card coming-soon__card stack" data-testid="direct-auth">
        <h1 id="direct-auth-title">{state.kind === 'failed' ? t('directAuth.failedTitle') : t('directAuth.title')}</h1>
        {state.kind === 'working' ? (
          <p role="status" aria-live="polite">
            {t('directAuth.checking')}
          </p>
        ) : (
          <>
            <div className="alert alert--error" role="alert">
              {messageText(state.message)}
            </div>
            <p>{t('directAuth.wayForward')}</p>
            <div className="actions">
              {state.retry ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setState({ kind: 'working' });
                    setAttempt((n) => n + 1);
                  }}
                >
                  {t('common.retry')}
                </button>
              ) : null}
              <Link className="button" to="/student-check">
                {t('directAuth.candidateWay')}
              </Link>
              <Link className="button button--secondary" to="/verification">
                {t('directAuth.verifyWay')}
              </Link>
              <Link className="button button--secondary" to="/login">
                {t('directAuth.staffWay')}
              </Link>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
