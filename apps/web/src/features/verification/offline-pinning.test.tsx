import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { pinnedIssuers, trustListEntry, TRUST_LIST_FORMAT, type PinnedIssuer } from '@sceau/verifier/trust-list';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { signedDemoPayload, type SignedDemo } from '@/features/verification/qr-test-support';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Issue 16 item 3 (ADR 0133): the offline QR check pins the issuers of the trust list bundled with
// the app; here that list pins a test ministry's key.
const bundled = vi.hoisted(() => ({ issuers: [] as PinnedIssuer[] }));
vi.mock('@/features/verification/offline-trust-list', () => ({ bundledPinnedIssuers: () => bundled.issuers }));

let ministry: SignedDemo;
beforeAll(async () => {
  ministry = await signedDemoPayload();
  const document = {
    id: 'minepst.gouv.cd',
    name: 'Ministère de l’Éducation nationale (test)',
    jwks_uri: 'https://minepst.gouv.cd/.well-known/jwks.json',
    registry: { chain_id: 72328, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  };
  bundled.issuers = pinnedIssuers({ format: TRUST_LIST_FORMAT, issuers: [trustListEntry(document, ministry.jwks)] });
});

describe('/verification offline, pinned by the trust list', () => {
  it('names the issuer it checked for a QR signed by a pinned key, and refuses one signed by another key, naming the issuer expected', async () => {
    const forger = await signedDemoPayload();
    // The server even publishes the forger's key: the pinned set does not take it.
    const { calls } = renderApp({ path: '/verification', routes: { 'GET /.well-known/jwks.json': () => jsonResponse({ keys: [...ministry.jwks.keys, ...forger.jwks.keys] }) } });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');

    fireEvent.change(field, { target: { value: ministry.text } });
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    expect(await screen.findByTestId('offline-banner')).toHaveAttribute('data-status', 'valid');
    expect(screen.getByTestId('offline-issuer')).toHaveTextContent('Émetteur vérifié : Ministère de l’Éducation nationale (test) (minepst.gouv.cd).');
    expect(screen.getByTestId('offline-issuer')).toHaveAttribute('data-pinned', 'true');
    expect(screen.getByTestId('offline-checks')).toHaveTextContent('prise dans la liste de confiance livrée avec le vérificateur');

    fireEvent.change(field, { target: { value: forger.text } });
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    await waitFor(() => expect(screen.getByTestId('offline-banner')).toHaveAttribute('data-status', 'unknown-key'));
    expect(screen.getByTestId('offline-issuer')).toHaveTextContent('Émetteur attendu : Ministère de l’Éducation nationale (test) (minepst.gouv.cd)');
    expect(screen.getByTestId('offline-issuer')).toHaveAttribute('data-issuer', '');
    const key = within(screen.getByTestId('offline-checks')).getByRole('listitem');
    expect(key).toHaveAttribute('data-status', 'failed');
    expect(key).toHaveTextContent("n'a pas été signé par l'émetteur attendu");
    expect(screen.queryByTestId('offline-diploma')).toBeNull();
    expect(calls.filter((c) => c.url.pathname === '/.well-known/jwks.json')).toHaveLength(0);
  });

  it('never calls valid a QR signed by a key retired since: offline nothing dates it, so it is to be checked online', async () => {
    const retired = await signedDemoPayload();
    const document = {
      id: 'minepst.gouv.cd',
      name: 'Ministère de l’Éducation nationale (test)',
      jwks_uri: 'https://minepst.gouv.cd/.well-known/jwks.json',
      registry: { chain_id: 72328, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
    };
    const keys = retired.jwks.keys.map((key) => ({ ...(key as object), status: 'retired', retired_at: '2026-03-01T10:00:00.000Z' }));
    const before = bundled.issuers;
    bundled.issuers = pinnedIssuers({ format: TRUST_LIST_FORMAT, issuers: [trustListEntry(document, { keys })] });
    try {
      renderApp({ path: '/verification' });
      const user = userEvent.setup();
      fireEvent.change(await screen.findByLabelText('Lien du diplôme'), { target: { value: retired.text } });
      await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
      const banner = await screen.findByTestId('offline-banner');
      expect(banner).toHaveAttribute('data-status', 'retired-key');
      expect(banner).toHaveTextContent('Clé retirée : à vérifier en ligne');
      expect(banner).toHaveTextContent('retirée le');
      expect(banner).not.toHaveTextContent('Signature du ministère valide');
      const inService = within(screen.getByTestId('offline-checks'))
        .getAllByRole('listitem')
        .find((item) => item.getAttribute('data-offline-check') === 'key_in_service');
      expect(inService).toHaveAttribute('data-status', 'online');
    } finally {
      bundled.issuers = before;
    }
  });
});
