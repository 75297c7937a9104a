import { LOCALE_HEADER } from '@sceau/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DIPLOMA_ID, result, TX_HASH } from '@/features/verification/verification-fixtures';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function open(answer: ReturnType<typeof result>) {
  return renderApp({ path: `/verify/${DIPLOMA_ID}`, routes: { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse(answer) } });
}

describe('/verify/{id}', () => {
  it('shows an authentic diploma: verdict, each check and the public fields', async () => {
    const { calls } = open(result('authentic', { credential: { id: DIPLOMA_ID } }));
    const banner = await screen.findByTestId('verdict-banner');
    expect(banner).toHaveAttribute('data-verdict', 'authentic');
    expect(banner).toHaveTextContent('Authentique');
    expect(banner).toHaveTextContent(/émis et signé par le ministère/);
    expect(banner.closest('[role="status"]')).not.toBeNull();
    expect(new Headers(calls.find((c) => c.url.pathname === `/api/verify/${DIPLOMA_ID}`)!.init.headers).get(LOCALE_HEADER)).toBe('fr');

    const checks = within(screen.getByTestId('verification-checks')).getAllByRole('listitem');
    expect(checks.map((c) => c.getAttribute('data-check'))).toEqual(['integrity', 'issuer_signature', 'issuer_identity', 'anchored', 'not_revoked']);
    expect(checks.every((c) => c.getAttribute('data-status') === 'passed')).toBe(true);
    expect(within(checks[0]!).getByRole('img', { name: 'Réussi' })).toBeInTheDocument();
    expect(within(checks[0]!).getByRole('heading', { name: 'Intégrité' })).toBeInTheDocument();

    const anchored = checks[3]!;
    expect(anchored).toHaveTextContent('80002');
    expect(anchored).toHaveTextContent(/1\s234\s567/);
    const tx = within(anchored).getByRole('link', { name: /0x5f2b8c…456789/ });
    expect(tx).toHaveAttribute('href', `https://amoy.polygonscan.com/tx/${TX_HASH}`);
    expect(anchored).toHaveTextContent(/0x9a3c0e…e7f809/);
    expect(anchored).toHaveTextContent(/2 mars 2026/);

    const diploma = screen.getByTestId('verification-diploma');
    expect(diploma).toHaveTextContent('MUKENDI KABONGO Aline');
    expect(diploma).toHaveTextContent('17 mai 2007');
    expect(diploma).toHaveTextContent(/65,5\s%/);
    expect(diploma).toHaveTextContent('20 juillet 2026');
    expect(diploma).toHaveTextContent('Institut Lumumba');
    expect(diploma).toHaveTextContent('Kinshasa-Gombe');
    expect(diploma).toHaveTextContent('Scientifique');
    expect(diploma).toHaveTextContent('Ministère de l’Enseignement');

    expect(screen.getByRole('button', { name: 'Copier le lien de cette vérification' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Télécharger les données du diplôme (JSON)' })).toBeInTheDocument();
  });

  it('shows a revoked diploma in red, with the date and reason of its revocation', async () => {
    open(result('revoked'));
    const banner = await screen.findByTestId('verdict-banner');
    expect(banner).toHaveAttribute('data-verdict', 'revoked');
    expect(banner).toHaveClass('verdict-banner--revoked');
    expect(banner).toHaveTextContent('Révoqué');
    expect(banner).toHaveTextContent(/n'est plus valable/);
    const check = screen.getByTestId('verification-checks').querySelector('[data-check="not_revoked"]') as HTMLElement;
    expect(check).toHaveAttribute('data-status', 'failed');
    expect(within(check).getByRole('img', { name: 'Échoué' })).toBeInTheDocument();
    expect(check).toHaveTextContent('Fraude constatée');
    expect(check).toHaveTextContent('Date de révocation');
  });

  it('shows an altered document without its fields, and the checks not made', async () => {
    open(result('altered'));
    const banner = await screen.findByTestId('verdict-banner');
    expect(banner).toHaveAttribute('data-verdict', 'altered');
    expect(banner).toHaveTextContent('Modifié ou contrefait');
    expect(banner).toHaveTextContent(/ne vous y fiez pas/);
    expect(screen.queryByTestId('verification-diploma')).toBeNull();
    const anchored = screen.getByTestId('verification-checks').querySelector('[data-check="anchored"]') as HTMLElement;
    expect(within(anchored).getByRole('img', { name: 'Non vérifié' })).toBeInTheDocument();
  });

  it('says an incomplete check could not be fully made, and offers to check again', async () => {
    open(result('incomplete'));
    const banner = await screen.findByTestId('verdict-banner');
    expect(banner).toHaveAttribute('data-verdict', 'incomplete');
    expect(banner).toHaveClass('verdict-banner--incomplete');
    expect(banner).toHaveTextContent("N'a pas pu être entièrement vérifié");
    expect(screen.getByRole('button', { name: 'Vérifier à nouveau' })).toBeInTheDocument();
  });

  it('refuses a malformed number without calling the API', async () => {
    const { calls } = renderApp({ path: '/verify/not-an-id' });
    expect(await screen.findByText('Numéro de diplôme invalide')).toBeInTheDocument();
    expect(screen.getByText('La vérification a échoué')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/verify'))).toHaveLength(0);
  });

  it('says the verification failed when the API fails', async () => {
    renderApp({ path: `/verify/${DIPLOMA_ID}`, routes: { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse({ code: 'bad_request', message: 'Requête invalide' }, 400) } });
    expect(await screen.findByText('La vérification a échoué')).toBeInTheDocument();
  });
});

describe('/verify/{id} in English', () => {
  it('follows a change of language without verifying again', async () => {
    const { calls } = open(result('authentic'));
    expect(await screen.findByTestId('verdict-banner')).toHaveTextContent('Authentique');
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    const banner = screen.getByTestId('verdict-banner');
    expect(banner).toHaveTextContent('Authentic');
    expect(banner).toHaveTextContent(/issued and signed by the ministry/);
    expect(screen.getByRole('heading', { name: 'Recorded on the blockchain' })).toBeInTheDocument();
    expect(screen.getByTestId('verification-diploma')).toHaveTextContent('May 17, 2007');
    expect(screen.getByTestId('verification-diploma')).toHaveTextContent('65.5%');
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/verify'))).toHaveLength(1);
  });
});

describe('/verify/{id} read in five seconds (ADR 0128)', () => {
  it('puts the verdict, then who and what, then how it was checked with the technical details folded', async () => {
    open(result('authentic', { diploma_kind: 'diplome_etat' }));
    const banner = await screen.findByTestId('verdict-banner');
    const holder = screen.getByTestId('verification-diploma');
    const checks = screen.getByTestId('verification-checks');
    expect(banner.compareDocumentPosition(holder) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(holder.compareDocumentPosition(checks) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('holder-name')).toHaveTextContent('MUKENDI KABONGO Aline');
    expect(holder).toHaveTextContent("Diplôme d'État");
    expect(screen.getByRole('heading', { name: 'Comment ce diplôme a été vérifié' })).toBeInTheDocument();
    // The transaction and contract are one tap away, not on the way.
    const technical = screen.getByTestId('technical-details') as HTMLDetailsElement;
    expect(technical.tagName).toBe('DETAILS');
    expect(technical.open).toBe(false);
    expect(within(technical).getByText('Détails techniques')).toBeInTheDocument();
    expect(technical).toHaveTextContent(/0x5f2b8c…456789/);
    expect(screen.getByTestId('checked-on')).toHaveTextContent(/^Vérifié le \d{1,2} \S+ \d{4}/);
  });

  it('lists the failing check first', async () => {
    open(result('revoked'));
    await screen.findByTestId('verdict-banner');
    const checks = within(screen.getByTestId('verification-checks')).getAllByRole('listitem');
    expect(checks[0]).toHaveAttribute('data-check', 'not_revoked');
    expect(checks[0]).toHaveAttribute('data-status', 'failed');
    expect(checks.slice(1).every((c) => c.getAttribute('data-status') !== 'failed')).toBe(true);
  });

  it('copies the link of the verification and says so', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    open(result('authentic'));
    await screen.findByTestId('verdict-banner');
    await userEvent.click(screen.getByRole('button', { name: 'Copier le lien de cette vérification' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/verify/${DIPLOMA_ID}`);
    expect(await within(screen.getByTestId('verification-share')).findByText('Copié')).toBeInTheDocument();
  });

  it('starts from the answer the server wrote into the page, without asking again', async () => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = 'sceau-verify-data';
    element.dataset.id = DIPLOMA_ID;
    // Just verified by the server (an older answer would be checked again, as any stale one).
    element.textContent = JSON.stringify({ ...result('authentic').data, checked_at: new Date().toISOString() });
    document.body.append(element);
    try {
      const { calls } = open(result('revoked'));
      expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
      expect(screen.getByTestId('checked-on')).toHaveTextContent(/^Vérifié le /);
      expect(calls.filter((c) => c.url.pathname.startsWith('/api/verify'))).toHaveLength(0);
    } finally {
      element.remove();
    }
  });
});
