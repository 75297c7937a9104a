import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DIPLOMA_ID, result } from '@/features/verification/verification-fixtures';
import { i18n } from '@/lib/i18n';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function open(path: string, answer?: ReturnType<typeof result>) {
  return renderApp({ path, routes: answer ? { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse(answer) } : {} });
}

describe('/view-certificate', () => {
  it('shows the diploma of ?id=: verdict, photo, public fields, a counted download and its link to share', async () => {
    const { calls } = open(`/view-certificate?id=${DIPLOMA_ID}`, result('authentic'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mon diplôme' })).toBeInTheDocument();
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    expect(calls.some((c) => c.url.pathname === `/api/verify/${DIPLOMA_ID}`)).toBe(true);

    const photo = screen.getByRole('img', { name: 'Photo de MUKENDI KABONGO Aline' });
    expect(photo).toHaveAttribute('src', `/api/verify/${DIPLOMA_ID}/photo`);
    expect(screen.getByTestId('verification-diploma')).toHaveTextContent('Institut Lumumba');

    const download = screen.getByRole('link', { name: 'Télécharger le diplôme (PDF)' });
    expect(download).toHaveAttribute('href', `/api/verify/${DIPLOMA_ID}/pdf`);
    expect(download).toHaveAttribute('download', `diplome-${DIPLOMA_ID}.pdf`);

    const share = screen.getByTestId('verification-share');
    expect(share).toHaveTextContent(`${window.location.origin}/verify/${DIPLOMA_ID}`);
    expect(within(share).getByRole('button', { name: 'Copier le lien de cette vérification' })).toBeInTheDocument();
  });

  it('offers the phone’s share sheet when the browser has one', async () => {
    const shared: ShareData[] = [];
    Object.defineProperty(navigator, 'share', { configurable: true, value: async (data: ShareData) => void shared.push(data) });
    try {
      open(`/view-certificate?id=${DIPLOMA_ID}`, result('authentic'));
      const button = await screen.findByRole('button', { name: 'Partager' });
      button.click();
      expect(shared).toEqual([{ title: 'Mon diplôme', url: `${window.location.origin}/verify/${DIPLOMA_ID}` }]);
    } finally {
      Reflect.deleteProperty(navigator, 'share');
    }
  });

  it('offers no download and no photo for a revoked diploma, but says it is revoked', async () => {
    open(`/view-certificate?id=${DIPLOMA_ID}`, result('revoked'));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'revoked');
    expect(screen.queryByRole('link', { name: 'Télécharger le diplôme (PDF)' })).toBeNull();
    expect(screen.queryByTestId('diploma-photo')).toBeNull();
  });

  it('without an id: a clear page leading to the candidate check and to /verification', async () => {
    const { calls } = open('/view-certificate');
    const none = await screen.findByTestId('view-certificate-none');
    expect(within(none).getByRole('heading', { name: 'Aucun diplôme indiqué' })).toBeInTheDocument();
    expect(within(none).getByRole('link', { name: 'Retrouver mon diplôme (espace candidat)' })).toHaveAttribute('href', '/student-check');
    expect(within(none).getByRole('link', { name: 'Vérifier un diplôme' })).toHaveAttribute('href', '/verification');
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/verify'))).toHaveLength(0);
  });

  it('with a malformed id or one no diploma has: "Diploma not found", in English too', async () => {
    open('/view-certificate?id=abc');
    expect(await screen.findByRole('heading', { name: 'Diplôme introuvable' })).toBeInTheDocument();
    await i18n.changeLanguage('en');
    expect(await screen.findByRole('heading', { name: 'Diploma not found' })).toBeInTheDocument();
  });

  it('with an unknown id', async () => {
    open(`/view-certificate?id=${DIPLOMA_ID}`, result('unknown'));
    expect(await screen.findByRole('heading', { name: 'Diplôme introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retrouver mon diplôme (espace candidat)' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Télécharger le diplôme (PDF)' })).toBeNull();
  });
});
