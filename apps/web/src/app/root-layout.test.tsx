import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const header = () => screen.queryByRole('banner');
const footer = () => screen.queryByRole('contentinfo');

async function scrollTo(y: number) {
  await act(async () => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('header and footer per route', () => {
  it('public page for a visitor: public links, sign-in button, footer', async () => {
    renderApp({ path: '/' });
    await screen.findByRole('heading', { level: 1, name: /diplômes nationaux authentifiés/ });
    const nav = within(header()!).getByRole('navigation', { name: 'Navigation principale' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Accueil', 'Vérification', 'Espace candidat', 'Contact']);
    expect(within(header()!).getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
    expect(footer()).toBeInTheDocument();
    expect(within(footer()!).getByText(new RegExp(`© ${new Date().getFullYear()} Sceau`))).toBeInTheDocument();
    expect(within(footer()!).getByRole('link', { name: 'contact@sceau.example' })).toHaveAttribute('href', 'mailto:contact@sceau.example');
  });

  it("public page for a signed-in user: 'Mon compte' to the dashboard, no logout", async () => {
    renderApp({ path: '/verification', signedIn: { profile: makeProfile(['admin']) } });
    await screen.findByRole('heading', { name: 'Vérifier un diplôme' });
    expect(within(header()!).getByRole('link', { name: 'Mon compte' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('button', { name: 'Se déconnecter' })).toBeNull();
    expect(footer()).toBeInTheDocument();
  });

  it('no header and no footer on the login page and the 404', async () => {
    const login = renderApp({ path: '/login' });
    await screen.findByRole('heading', { name: 'Connexion' });
    expect(header()).toBeNull();
    expect(footer()).toBeNull();
    login.unmount();

    renderApp({ path: '/nothing/here' });
    await screen.findByRole('heading', { name: /Page introuvable/ });
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
    expect(header()).toBeNull();
    expect(footer()).toBeNull();
  });

  it('back office: dashboard link, role-access link only with the users section, logout, no footer', async () => {
    const admin = renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['admin']) } });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    const nav = within(header()!).getByRole('navigation');
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/dashboard', '/role-access']);
    expect(within(header()!).getByRole('button', { name: 'Se déconnecter' })).toBeInTheDocument();
    expect(footer()).toBeNull();
    admin.unmount();

    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['validateur']) } });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(
      within(within(header()!).getByRole('navigation'))
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/dashboard']);
  });

  it('logout calls the server, clears the session and goes home', async () => {
    localStorage.setItem('token', 'remembered');
    const { router, calls } = renderApp({
      path: '/dashboard',
      signedIn: { profile: makeProfile(['admin']) },
      routes: { 'POST /api/user/logout': () => jsonResponse({ data: { message: 'Vous êtes déconnecté' } }) },
    });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Se déconnecter' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.map((c) => c.url.pathname)).toContain('/api/user/logout');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('profile')).toBeNull();
    expect(within(header()!).getByRole('link', { name: 'Se connecter' })).toBeInTheDocument();
  });

  it('sets layout classes by role and flags validators', async () => {
    const { container, unmount } = renderApp({
      path: '/dashboard',
      signedIn: { profile: makeProfile(['root', 'backoffice_manager']) },
    });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    const root = container.querySelector('.layout')!;
    expect(root).toHaveClass('layout--root', 'layout--backoffice-manager', 'layout--backoffice');
    expect(root).not.toHaveClass('layout--admin');
    expect(header()).not.toHaveClass('is-validator');
    unmount();

    renderApp({ path: '/dashboard', signedIn: { profile: makeProfile(['validateur']) } });
    await screen.findByRole('heading', { name: /Bienvenue/ });
    expect(header()).toHaveClass('is-validator');
  });
});

describe('sticky header', () => {
  it('sticks after 50 px of scrolling on the home page', async () => {
    renderApp({ path: '/' });
    await screen.findByRole('heading', { level: 1, name: /diplômes/ });
    await scrollTo(40);
    expect(header()).not.toHaveClass('site-header--sticky');
    await scrollTo(51);
    expect(header()).toHaveClass('site-header--sticky');
    await scrollTo(10);
    expect(header()).not.toHaveClass('site-header--sticky');
  });

  it('never sticks on other pages', async () => {
    renderApp({ path: '/privacy-policy' });
    await screen.findByRole('heading', { level: 1, name: 'Politique de confidentialité' });
    await scrollTo(400);
    expect(header()).not.toHaveClass('site-header--sticky');
  });
});

describe('mobile menu', () => {
  it('opens with the button and closes on Escape, outside click and navigation', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/' });
    await screen.findByRole('heading', { level: 1, name: /diplômes/ });
    const toggle = screen.getByRole('button', { name: 'Ouvrir le menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Fermer le menu');
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();

    await user.click(toggle);
    fireEvent.mouseDown(screen.getByRole('main'));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    await user.click(within(header()!).getByRole('link', { name: 'Contact' }));
    await screen.findByRole('heading', { level: 1, name: 'Nous contacter' });
    expect(screen.getByRole('button', { name: 'Ouvrir le menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('language selector', () => {
  it('switches the page to English and keeps the choice', async () => {
    const user = userEvent.setup();
    renderApp({ path: '/' });
    await screen.findByRole('heading', { level: 1, name: /diplômes/ });
    await user.selectOptions(screen.getByLabelText('Langue'), 'en');
    expect(await screen.findByRole('heading', { level: 1, name: /national diplomas authenticated/ })).toBeInTheDocument();
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('/mon-{product}', () => {
  it('opens the candidate check on /mon-exetat and a 404 on another product', async () => {
    const ok = renderApp({ path: '/mon-exetat' });
    await screen.findByRole('heading', { name: 'Espace candidat' });
    ok.unmount();
    renderApp({ path: '/mon-autre' });
    await screen.findByRole('heading', { name: /Page introuvable/ });
  });
});
