import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { renderApp } from '@/test/render-app';

describe('legal pages', () => {
  it('privacy policy: data held, purposes, retention, rights, the blockchain holds no personal data, contacts', async () => {
    renderApp({ path: '/privacy-policy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Politique de confidentialité' })).toBeInTheDocument();
    const toc = screen.getByRole('navigation', { name: 'Sommaire' });
    expect(within(toc).getAllByRole('link')).toHaveLength(10);
    expect(screen.getByTestId('legal-data')).toHaveTextContent('code candidat à 14 chiffres');
    expect(within(screen.getByTestId('legal-data')).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByTestId('legal-purposes')).toHaveTextContent('Délivrer, signer, publier');
    expect(screen.getByTestId('legal-retention')).toHaveTextContent('Messages de contact : 2 ans');
    expect(screen.getByTestId('legal-rights')).toHaveTextContent('contact@sceau.example');
    expect(screen.getByTestId('legal-blockchain')).toHaveTextContent('Aucun nom, aucune date de naissance, aucune photo');
    const article = screen.getByRole('article');
    expect(within(article).getByRole('link', { name: "Conditions d'utilisation" })).toHaveAttribute('href', '/terms-and-conditions');
  });

  it('terms and conditions, in English', async () => {
    await i18n.changeLanguage('en');
    renderApp({ path: '/terms-and-conditions' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' })).toBeInTheDocument();
    expect(screen.getByTestId('legal-verification')).toHaveTextContent('never presented as passed');
    expect(screen.getByTestId('legal-candidates')).toHaveTextContent("another person's information is forbidden");
    expect(screen.getByTestId('legal-law')).toHaveTextContent('contact@sceau.example');
    // The contents, then ten sections.
    expect(within(screen.getByRole('article')).getAllByRole('heading', { level: 2 })).toHaveLength(11);
  });
});
