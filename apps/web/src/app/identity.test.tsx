import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Footer } from '@/app/footer';
import { changeLocale } from '@/lib/i18n';
import { DEFAULT_CONFIG, readConfig } from '@/lib/config';
import { renderApp } from '@/test/render-app';

function documentWith(config: unknown): Document {
  const doc = document.implementation.createHTMLDocument();
  const meta = doc.createElement('meta');
  meta.name = 'sceau-config';
  meta.content = JSON.stringify(config);
  doc.head.append(meta);
  return doc;
}

const links = { androidApp: null, iosApp: null, facebook: null, x: null, linkedin: null, youtube: null };

describe("the issuer's identity on the site (ADR 0129)", () => {
  it('reads the issuer and the footer links from the runtime configuration, keeping only web addresses', () => {
    const config = readConfig(
      documentWith({
        issuer: { name: 'Ministère de la Santé', nameEn: 'Ministry of Health', shortName: 'MS', email: 'a@b.cd', website: 'javascript:alert(1)' },
        links: { facebook: 'https://www.facebook.com/sante', x: '#', youtube: '' },
        phoneCountry: 'FR',
      }),
    );
    expect(config.issuer).toMatchObject({ name: 'Ministère de la Santé', nameEn: 'Ministry of Health', shortName: 'MS', email: 'a@b.cd', website: null, address: null });
    expect(config.links).toEqual({ ...links, facebook: 'https://www.facebook.com/sante' });
    expect(config.phoneCountry).toBe('FR');
    expect(readConfig(documentWith({})).issuer).toEqual(DEFAULT_CONFIG.issuer);
  });

  it('shows no app or social link that is not configured (no placeholder)', () => {
    render(
      <MemoryRouter>
        <Footer links={links} />
      </MemoryRouter>,
    );
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).queryByRole('heading', { name: 'Application mobile' })).toBeNull();
    expect(within(footer).queryByRole('heading', { name: 'Suivez-nous' })).toBeNull();
    expect(within(footer).queryByRole('link', { name: /Facebook|Google Play|App Store/ })).toBeNull();
    for (const link of within(footer).getAllByRole('link')) expect(link.getAttribute('href')).not.toBe('#');
  });

  it('shows the configured links, and names the ministry with its contact', () => {
    render(
      <MemoryRouter>
        <Footer
          links={{ ...links, facebook: 'https://www.facebook.com/educ.cd', androidApp: 'https://play.google.com/store/apps/details?id=cd.sceau' }}
          issuer={{ ...DEFAULT_CONFIG.issuer, address: 'Avenue des Ambassadeurs, Kinshasa-Gombe', phone: '+243 81 234 5678', website: 'https://educ.gouv.cd' }}
        />
      </MemoryRouter>,
    );
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: /Facebook/ })).toHaveAttribute('href', 'https://www.facebook.com/educ.cd');
    expect(within(footer).getByRole('link', { name: /Google Play/ })).toHaveAttribute('href', 'https://play.google.com/store/apps/details?id=cd.sceau');
    expect(within(footer).queryByRole('link', { name: /App Store|LinkedIn|YouTube|^X/ })).toBeNull();
    expect(footer).toHaveTextContent("Ministère de l'Éducation nationale et Nouvelle Citoyenneté");
    expect(footer).toHaveTextContent('Avenue des Ambassadeurs, Kinshasa-Gombe');
    expect(within(footer).getByRole('link', { name: '+243 81 234 5678' })).toHaveAttribute('href', 'tel:+243812345678');
    expect(within(footer).getByRole('link', { name: /Site officiel du ministère/ })).toHaveAttribute('href', 'https://educ.gouv.cd');
    expect(footer).toHaveTextContent(/© \d{4} Sceau — Ministère de l'Éducation nationale et Nouvelle Citoyenneté\./);
  });

  it('the home page shows the ministry, in the page language', async () => {
    renderApp({ path: '/', routes: { 'GET /api/metrics/public': () => new Response('{}', { status: 503 }) } });
    expect(await screen.findByTestId('home-issuer')).toHaveTextContent("Plateforme officielle · Ministère de l'Éducation nationale et Nouvelle Citoyenneté");
    expect(screen.getByRole('banner')).toHaveTextContent('EDU-NC');
    await changeLocale('en');
    try {
      expect(await screen.findByText('Official platform · Ministry of National Education and New Citizenship')).toBeInTheDocument();
    } finally {
      await changeLocale('fr');
    }
  });

  it('the legal pages name the configured ministry', async () => {
    renderApp({ path: '/privacy-policy' });
    expect(await screen.findByText(/^Ministère de l'Éducation nationale et Nouvelle Citoyenneté \(ci-après « le ministère »\)/)).toBeInTheDocument();
  });
});
