import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DIPLOMA_ID, result } from '@/features/verification/verification-fixtures';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Issue 14 item 4 (ADR 0127): offline, a check says "Erreur de connexion" at once (no request,
// no paused query, no retries), with a retry button that works once the network is back.

function goOffline() {
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  act(() => void window.dispatchEvent(new Event('offline')));
  return () => {
    onLine.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
  };
}

describe('offline and server errors at once', () => {
  it('/verification offline: the connection error at once and the offline notice; back online, retry verifies', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { 'POST /api/generations/verify': () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Lien du diplôme'), `https://sceau.example.cd/verify/${DIPLOMA_ID}`);
    const backOnline = goOffline();
    expect(screen.getByTestId('network-offline')).toHaveTextContent('Vous êtes hors ligne');

    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verification-error')).toHaveTextContent('Erreur de connexion');
    expect(calls).toHaveLength(0);
    expect(screen.getByTestId('verification-submit')).not.toHaveAttribute('aria-busy', 'true');
    // The connection error is this client's own message: in the language chosen since.
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('verification-error')).toHaveTextContent('Connection error');
    await act(() => i18n.changeLanguage('fr'));

    backOnline();
    expect(screen.queryByTestId('network-offline')).toBeNull();
    await user.click(screen.getByTestId('verification-retry'));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('/verification: a server error shows at once, once, with a retry button', async () => {
    const { calls } = renderApp({
      path: '/verification',
      routes: { 'POST /api/generations/verify': () => jsonResponse({ code: 'internal_error', message: 'Erreur interne' }, 503) },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Lien du diplôme'), DIPLOMA_ID);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verification-error')).toHaveTextContent('La vérification a échoué');
    expect(screen.getByTestId('verification-retry')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('/verify/{id} offline: the connection error at once, not a paused "Vérification en cours…"; retry works online', async () => {
    const backOnline = goOffline();
    const { calls } = renderApp({ path: `/verify/${DIPLOMA_ID}`, routes: { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse(result('authentic')) } });
    const alert = await screen.findByTestId('verification-error');
    expect(alert).toHaveTextContent('Erreur de connexion');
    expect(calls).toHaveLength(0);
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('verification-error')).toHaveTextContent('Connection error');
    await act(() => i18n.changeLanguage('fr'));

    backOnline();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
  });

  it('/verify/{id}: a server error is shown without retries', async () => {
    const { calls } = renderApp({
      path: `/verify/${DIPLOMA_ID}`,
      routes: { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse({ code: 'internal_error', message: 'Erreur interne' }, 500) },
    });
    expect(await screen.findByTestId('verification-error')).toHaveTextContent('La vérification a échoué');
    expect(calls.filter((call) => call.url.pathname === `/api/verify/${DIPLOMA_ID}`)).toHaveLength(1);
  });
});
