import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeHolderDiploma, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const diploma = (download: boolean) =>
  download ? makeHolderDiploma() : makeHolderDiploma({ id: 'ZyXwVuTsRqPoNmLkJiHgFe', status: 'revoked', abilities: { download: false, share: false } });

describe('the SD-JWT VC download says each copy is new (ADR 0145)', () => {
  it('tells the holder that each download is signed afresh, not linkable by its signature, in French and in English; not for a diploma they cannot download', async () => {
    renderApp({
      path: '/my-diplomas',
      signedIn: { profile: makeProfile([]) },
      routes: { 'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma(true), diploma(false)] }) },
    });
    const hints = await screen.findAllByTestId('sd-jwt-hint');
    expect(hints).toHaveLength(1);
    expect(within(hints[0]!).getByText(/signé à nouveau à chaque téléchargement/)).toBeInTheDocument();
    await changeLocale('en');
    expect(await screen.findByText(/signed afresh at each download/)).toBeInTheDocument();
  });
});
