import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DIPLOMA_ID, result } from '@/features/verification/verification-fixtures';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function open(answer: ReturnType<typeof result>) {
  return renderApp({ path: `/verify/${DIPLOMA_ID}`, routes: { [`GET /api/verify/${DIPLOMA_ID}`]: () => jsonResponse(answer) } });
}

describe('/verify/{id}: download and photo', () => {
  it('offers the signed PDF (a counted download) and shows the holder’s photo for an authentic diploma', async () => {
    open(result('authentic'));
    await screen.findByTestId('verdict-banner');
    const download = screen.getByRole('link', { name: 'Télécharger le diplôme (PDF)' });
    expect(download).toHaveAttribute('href', `/api/verify/${DIPLOMA_ID}/pdf`);
    expect(download).toHaveAttribute('download');
    const photo = screen.getByTestId('diploma-photo');
    expect(photo).toHaveAttribute('src', `/api/verify/${DIPLOMA_ID}/photo`);
    expect(photo).toHaveAttribute('alt', 'Photo de MUKENDI KABONGO Aline');
  });

  it('hides the photo when the server has none', async () => {
    open(result('authentic'));
    const photo = await screen.findByTestId('diploma-photo');
    fireEvent.error(photo);
    expect(screen.queryByTestId('diploma-photo')).toBeNull();
    expect(screen.getByTestId('verification-diploma')).toHaveTextContent('MUKENDI KABONGO Aline');
  });

  it('still offers the download when a check could not be made (the diploma is published and not revoked)', async () => {
    open(result('incomplete'));
    await screen.findByTestId('verdict-banner');
    expect(screen.getByRole('link', { name: 'Télécharger le diplôme (PDF)' })).toBeInTheDocument();
  });

  it('offers neither for a revoked diploma', async () => {
    open(result('revoked'));
    await screen.findByTestId('verdict-banner');
    expect(screen.queryByRole('link', { name: 'Télécharger le diplôme (PDF)' })).toBeNull();
    expect(screen.queryByTestId('diploma-photo')).toBeNull();
    expect(screen.getByTestId('verification-diploma')).toBeInTheDocument();
  });
});
