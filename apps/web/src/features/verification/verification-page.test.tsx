import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DIPLOMA_ID, result } from '@/features/verification/verification-fixtures';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const VERIFY = 'POST /api/generations/verify';

function sentForm(calls: { method: string; url: URL; init: RequestInit }[]): FormData {
  const call = calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/generations/verify');
  expect(call).toBeDefined();
  expect(call!.init.body).toBeInstanceOf(FormData);
  return call!.init.body as FormData;
}

describe('/verification', () => {
  it('verifies by link: posts cert_url and shows the result', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    const link = `https://sceau.example.cd/verify/${DIPLOMA_ID}`;
    await user.type(await screen.findByLabelText('Lien du diplôme'), link);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));

    const banner = await screen.findByTestId('verdict-banner');
    expect(banner).toHaveAttribute('data-verdict', 'authentic');
    expect(screen.getByRole('status')).toHaveTextContent('Authentique');
    expect(sentForm(calls).get('cert_url')).toBe(link);
    expect(sentForm(calls).get('cert_document')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Résultat de la vérification' })).toHaveFocus();
    expect(within(screen.getByTestId('verification-checks')).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByTestId('verification-diploma')).toHaveTextContent('MUKENDI KABONGO Aline');
  });

  it('accepts the offline QR text and a bare diploma number as cert_url', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('incomplete', { source: 'qr' })) } });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');
    await user.type(field, 'SC1:6BFOXN*TS0DLHC9');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'incomplete');
    expect(sentForm(calls).get('cert_url')).toBe('SC1:6BFOXN*TS0DLHC9');

    await user.clear(field);
    await user.type(field, DIPLOMA_ID);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect((calls.filter((c) => c.method === 'POST')[1]!.init.body as FormData).get('cert_url')).toBe(DIPLOMA_ID);
  });

  it('refuses an invalid link before any call', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');
    await user.type(field, 'pas un lien');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Lien invalide')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('shows the field message of a 422 next to the link', async () => {
    renderApp({
      path: '/verification',
      routes: {
        [VERIFY]: () =>
          jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { cert_url: ['Ce lien ne mène pas à un diplôme de la plateforme'] } }, 422),
      },
    });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');
    await user.type(field, 'https://example.com/autre');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    const message = await screen.findByText('Ce lien ne mène pas à un diplôme de la plateforme');
    expect(message).toHaveAttribute('id', 'verify-link-error');
    expect(field).toHaveAttribute('aria-describedby', expect.stringContaining('verify-link-error'));
    expect(screen.queryByTestId('verdict-banner')).toBeNull();
  });

  it('says "Erreur de connexion" when the network fails', async () => {
    renderApp({
      path: '/verification',
      routes: {
        [VERIFY]: () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Lien du diplôme'), `https://sceau.example.cd/verify/${DIPLOMA_ID}`);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Erreur de connexion');
  });

  it('says "La vérification a échoué" on a server failure', async () => {
    renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse({ code: 'internal_error', message: 'Erreur interne' }, 500) } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Lien du diplôme'), `https://sceau.example.cd/verify/${DIPLOMA_ID}`);
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('La vérification a échoué');
  });

  it('verifies an uploaded PDF, sent as cert_document', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('altered', { source: 'pdf' })) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    expect(screen.getByText(/5 Mo au plus/)).toBeInTheDocument();
    const pdf = new File(['%PDF-1.7 ...'], 'diplome.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Document du diplôme'), pdf);
    expect(screen.getByTestId('verification-file')).toHaveTextContent('diplome.pdf');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'altered');
    const sent = sentForm(calls).get('cert_document');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('diplome.pdf');
    expect(sentForm(calls).get('cert_url')).toBeNull();
  });

  it('refuses a file over 5 MB before sending it', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'gros.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Document du diplôme'), big);
    expect(await screen.findByText('Le fichier ne doit pas dépasser 5 Mo')).toBeInTheDocument();
    expect(screen.queryByTestId('verification-file')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(screen.getByText('Un fichier est requis')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('shows the field message of a 422 next to the document', async () => {
    renderApp({
      path: '/verification',
      routes: {
        [VERIFY]: () =>
          jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { cert_document: ["Ce fichier n'est ni un diplôme PDF, ni des données de diplôme, ni le contenu d'un code QR de diplôme"] } }, 422),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    await user.upload(screen.getByLabelText('Document du diplôme'), new File(['bonjour'], 'note.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText(/Ce fichier n'est ni un diplôme PDF/)).toHaveAttribute('id', 'verify-document-error');
  });

  it('takes a file dropped on the zone', async () => {
    renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    const json = new File(['{"id":"x"}'], 'diplome.json', { type: 'application/json' });
    fireEvent.drop(screen.getByTestId('verification-dropzone'), { dataTransfer: { files: [json] } });
    expect(screen.getByTestId('verification-file')).toHaveTextContent('diplome.json');
  });

  it('speaks English when chosen', async () => {
    renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('revoked')) } });
    const { i18n } = await import('@/lib/i18n');
    await i18n.changeLanguage('en');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Diploma's link"), 'not a link');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid link')).toBeInTheDocument();
  });
});
