import type { HolderDiplomaView, SharedDiplomaView, ShareLinkView } from '@sceau/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import decodeQR from 'qr/decode.js';
import { describe, expect, it, vi } from 'vitest';
import { changeLocale } from '@/lib/i18n';
import { jsonResponse, makeHolderDiploma, makeProfile } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const VALID = 'AbCdEfGhIjKlMnOpQrStUv';
const REVOKED = 'ZyXwVuTsRqPoNmLkJiHgFe';
const TOKEN = 'k'.repeat(43);

const diploma = (overrides: Partial<HolderDiplomaView> = {}) => makeHolderDiploma({ id: VALID, ...overrides });

function share(overrides: Partial<ShareLinkView> = {}): ShareLinkView {
  return {
    id: 1,
    diploma_id: VALID,
    label: 'Employeur',
    created_at: '2026-11-20T10:00:00.000Z',
    expires_at: '2026-12-20T10:00:00.000Z',
    revoked_at: null,
    state: 'active',
    opens: 2,
    last_opened_at: null,
    disclosed: ['birth_date', 'school', 'percentage', 'photo'],
    ...overrides,
  };
}

const signedIn = { profile: makeProfile([]) };

describe('my diplomas and results', () => {
  it('shows each of my diplomas with its result, the PDF to download and a way to share it; a revoked one says so and offers neither', async () => {
    renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () =>
          jsonResponse({ data: [diploma(), diploma({ id: REVOKED, status: 'revoked', revocation_reason: 'erreur de saisie', abilities: { download: false, share: false } })] }),
      },
    });
    const [valid, revoked] = await screen.findAllByTestId('holder-diploma');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Mes diplômes et résultats');
    expect(within(valid!).getByRole('heading', { name: "Diplôme d'État" })).toBeInTheDocument();
    expect(within(valid!).getByText('Élodie Ngalula Kabamba')).toBeInTheDocument();
    expect(within(valid!).getByTestId('holder-result')).toHaveTextContent('72,5 %');
    expect(within(valid!).getByRole('link', { name: 'Télécharger le PDF signé' })).toHaveAttribute('href', `/api/verify/${VALID}/pdf`);
    expect(within(valid!).getByRole('link', { name: 'Partager' })).toHaveAttribute('href', `/my-diplomas/shares?diploma=${VALID}`);
    expect(within(revoked!).getByText('Révoqué')).toBeInTheDocument();
    expect(within(revoked!).getByText(/révoqué par le ministère \(erreur de saisie\)/)).toBeInTheDocument();
    expect(within(revoked!).queryByRole('link', { name: 'Télécharger le PDF signé' })).toBeNull();
    expect(within(revoked!).queryByRole('link', { name: 'Partager' })).toBeNull();
  });

  it('downloads my full credential from my own side, signed in, never from the public verification', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:credential'), revokeObjectURL: vi.fn() });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const { calls } = renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        [`GET /api/holder/diplomas/${VALID}/credential`]: () =>
          new Response('{"version":"sceau-credential/1"}', {
            status: 200,
            headers: { 'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="diplome-${VALID}.json"` },
          }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: "Télécharger l'attestation numérique (JSON)" }));
    await waitFor(() => expect(saved).toEqual([{ href: 'blob:credential', download: `diplome-${VALID}.json` }]));
    const download = calls.find((c) => c.url.pathname === `/api/holder/diplomas/${VALID}/credential`)!;
    expect(new Headers(download.init.headers).get('Authorization')).toBe('Bearer test-token');
    expect(calls.some((c) => c.url.pathname.startsWith('/api/verify/'))).toBe(false);
  });

  it('says what to do when no diploma is linked to the account yet', async () => {
    renderApp({ path: '/my-diplomas', signedIn, routes: { 'GET /api/holder/diplomas': () => jsonResponse({ data: [] }) } });
    const none = await screen.findByTestId('holder-none');
    expect(none).toHaveTextContent('Aucun diplôme pour le moment');
    expect(within(none).getByRole('link', { name: 'Consulter mon résultat' })).toHaveAttribute('href', '/student-check');
  });

  it('is reached from the dashboard of an account without staff role', async () => {
    renderApp({ path: '/dashboard', signedIn, routes: {} });
    expect(await screen.findByRole('link', { name: /Mes diplômes et résultats/ })).toHaveAttribute('href', '/my-diplomas');
  });

  it('reads English', async () => {
    await changeLocale('en');
    try {
      renderApp({ path: '/my-diplomas', signedIn, routes: { 'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }) } });
      expect(await screen.findByRole('heading', { name: 'State diploma' })).toBeInTheDocument();
      expect(screen.getByTestId('holder-result')).toHaveTextContent('72.5%');
      expect(screen.getByRole('link', { name: 'Download the signed PDF' })).toBeInTheDocument();
    } finally {
      await changeLocale('fr');
    }
  });
});

/** The text of a QR code drawn as SVG squares, read back by the QR decoder from its pixels (4 per module). */
function readQr(svg: Element): string {
  const size = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
  const dark = new Set(
    [
      ...svg
        .querySelector('path')!
        .getAttribute('d')!
        .matchAll(/M(\d+) (\d+)h1v1h-1z/g),
    ].map(([, x, y]) => `${x},${y}`),
  );
  const width = size * 4;
  const data = new Uint8ClampedArray(width * width * 4);
  for (let py = 0; py < width; py++)
    for (let px = 0; px < width; px++) {
      const value = dark.has(`${Math.floor(px / 4)},${Math.floor(py / 4)}`) ? 0 : 255;
      data.set([value, value, value, 255], (py * width + px) * 4);
    }
  return decodeQR({ width, height: width, data });
}

/** A credential offer as the API makes it (OpenID4VCI, ADR 0146), with a transaction code if given. */
function walletOffer(expiresAt: string, txCode: string | null = null) {
  const credential_offer = {
    credential_issuer: 'https://diplomes.example.cd',
    credential_configuration_ids: ['diploma_dc_sd_jwt', 'diploma_ldp_vc'],
    grants: {
      'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
        'pre-authorized_code': 'c'.repeat(43),
        ...(txCode ? { tx_code: { input_mode: 'numeric' as const, length: 6, description: 'Saisissez le code' } } : {}),
      },
    },
  };
  return {
    credential_offer,
    offer_uri: `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(credential_offer))}`,
    expires_at: expiresAt,
    tx_code: txCode,
  };
}

describe('my diploma as portable credentials and in a wallet', () => {
  it('downloads the Open Badges VC and the SD-JWT VC from my own side, signed in', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:file'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { calls } = renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        [`GET /api/holder/diplomas/${VALID}/vc`]: () =>
          new Response('{}', { status: 200, headers: { 'Content-Type': 'application/vc+ld+json', 'Content-Disposition': `attachment; filename="diplome-${VALID}.vc.json"` } }),
        [`GET /api/holder/diplomas/${VALID}/sd-jwt`]: () =>
          new Response('eyJ.eyJ.sig~', {
            status: 200,
            headers: { 'Content-Type': 'application/dc+sd-jwt', 'Content-Disposition': `attachment; filename="diplome-${VALID}.sd-jwt"` },
          }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Télécharger le badge Open Badges 3.0 (VC JSON)' }));
    await user.click(screen.getByRole('button', { name: 'Télécharger le SD-JWT VC (divulgation sélective)' }));
    await waitFor(() => expect(saved).toEqual([`diplome-${VALID}.vc.json`, `diplome-${VALID}.sd-jwt`]));
    for (const path of [`/api/holder/diplomas/${VALID}/vc`, `/api/holder/diplomas/${VALID}/sd-jwt`]) {
      const call = calls.find((c) => c.url.pathname === path)!;
      expect(new Headers(call.init.headers).get('Authorization')).toBe('Bearer test-token');
    }
  });

  it("offers the diploma to a wallet: a new offer's QR code, the link for this phone and until when it works", async () => {
    const offer = walletOffer(new Date(Date.now() + 10 * 60_000).toISOString());
    const { calls } = renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma(), diploma({ id: REVOKED, status: 'revoked', abilities: { download: false, share: false } })] }),
        [`POST /api/holder/diplomas/${VALID}/wallet-offer`]: () => jsonResponse({ data: offer }, 201),
      },
    });
    const user = userEvent.setup();
    const [valid, revoked] = await screen.findAllByTestId('holder-diploma');
    expect(within(revoked!).queryByRole('button', { name: 'Ajouter à un portefeuille' })).toBeNull();
    await user.click(within(valid!).getByRole('button', { name: 'Ajouter à un portefeuille' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter à un portefeuille numérique' });
    const qr = await within(dialog).findByRole('img', { name: "Code QR de l'offre pour votre portefeuille" });
    // What a wallet's camera reads from the drawn squares is the offer's link.
    expect(readQr(qr)).toBe(offer.offer_uri);
    expect(within(dialog).getByRole('link', { name: 'Ouvrir dans mon portefeuille' })).toHaveAttribute('href', offer.offer_uri);
    const time = new Intl.DateTimeFormat('fr', { hour: '2-digit', minute: '2-digit' }).format(new Date(offer.expires_at));
    expect(within(dialog).getByTestId('wallet-offer-expiry')).toHaveTextContent(`Offre valable une seule fois, jusqu'à ${time}.`);
    const post = calls.filter((c) => c.url.pathname === `/api/holder/diplomas/${VALID}/wallet-offer`);
    expect(post).toHaveLength(1);
    expect(post[0]!.init.method).toBe('POST');
    expect(new Headers(post[0]!.init.headers).get('Authorization')).toBe('Bearer test-token');
  });

  it('says when an offer has expired and makes a new one on request', async () => {
    let made = 0;
    renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        [`POST /api/holder/diplomas/${VALID}/wallet-offer`]: () => {
          made += 1;
          return jsonResponse({ data: walletOffer(new Date(Date.now() + (made === 1 ? -1000 : 10 * 60_000)).toISOString()) }, 201);
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ajouter à un portefeuille' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Cette offre a expiré : créez-en une nouvelle.');
    expect(within(dialog).queryByRole('img')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Nouvelle offre' }));
    expect(await within(dialog).findByRole('img', { name: "Code QR de l'offre pour votre portefeuille" })).toBeInTheDocument();
    expect(made).toBe(2);
  });

  it("says in English why no offer could be made, in the server's words, and tries again", async () => {
    await changeLocale('en');
    try {
      let made = 0;
      renderApp({
        path: '/my-diplomas',
        signedIn,
        routes: {
          'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
          [`POST /api/holder/diplomas/${VALID}/wallet-offer`]: () => {
            made += 1;
            return made === 1
              ? jsonResponse({ code: 'rate_limited', message: 'Too many attempts. Try again in 60 seconds.' }, 429)
              : jsonResponse({ data: walletOffer(new Date(Date.now() + 10 * 60_000).toISOString()) }, 201);
          },
        },
      });
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Add to a wallet' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add to a digital wallet' });
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 60 seconds.');
      await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
      expect(await within(dialog).findByRole('img', { name: 'QR code of the offer for your wallet' })).toBeInTheDocument();
      expect(within(dialog).getByRole('link', { name: 'Open in my wallet' })).toBeInTheDocument();
      expect(within(dialog).getByTestId('wallet-offer-expiry')).toHaveTextContent(/^Offer valid once, until /);
    } finally {
      await changeLocale('fr');
    }
  });
  it('asks for a transaction code on request: a new offer, the code hidden until shown, the choice kept for next time (French and English)', async () => {
    window.localStorage.removeItem('sceau.wallet-tx-code');
    const bodies: unknown[] = [];
    const { calls } = renderApp({
      path: '/my-diplomas',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        [`POST /api/holder/diplomas/${VALID}/wallet-offer`]: (_url, init) => {
          const withCode = (JSON.parse(String(init.body)) as { tx_code?: boolean }).tx_code === true;
          return jsonResponse({ data: walletOffer(new Date(Date.now() + 10 * 60_000).toISOString(), withCode ? '042917' : null) }, 201);
        },
      },
    });
    const readBodies = () => {
      bodies.length = 0;
      for (const c of calls.filter((call) => call.url.pathname === `/api/holder/diplomas/${VALID}/wallet-offer`)) bodies.push(JSON.parse(String(c.init.body)));
    };
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ajouter à un portefeuille' }));
    let dialog = await screen.findByRole('dialog', { name: 'Ajouter à un portefeuille numérique' });
    await within(dialog).findByRole('img', { name: "Code QR de l'offre pour votre portefeuille" });
    readBodies();
    expect(bodies).toEqual([{ tx_code: false }]);
    expect(within(dialog).queryByTestId('wallet-offer-tx-code')).toBeNull();
    const choice = within(dialog).getByRole('checkbox', { name: /Demander aussi un code à 6 chiffres/ });
    expect(choice).not.toBeChecked();
    await user.click(choice);
    const code = await within(dialog).findByTestId('wallet-offer-tx-code');
    readBodies();
    expect(bodies).toEqual([{ tx_code: false }, { tx_code: true }]);
    // Hidden at first: the QR code may be on a screen others see.
    expect(within(code).queryByText('042 917')).toBeNull();
    await user.click(within(code).getByRole('button', { name: 'Afficher le code' }));
    expect(within(code).getByText('042 917')).toBeInTheDocument();
    await user.click(within(code).getByRole('button', { name: 'Masquer le code' }));
    expect(within(code).queryByText('042 917')).toBeNull();
    // The QR code itself carries no code, only that one is needed.
    const qr = within(dialog).getByRole('img', { name: "Code QR de l'offre pour votre portefeuille" });
    expect(readQr(qr)).not.toContain('042917');
    expect(readQr(qr)).toContain('tx_code');
    await user.click(within(dialog).getByRole('button', { name: 'Fermer' }));

    // Next time the choice is kept; in English too.
    await changeLocale('en');
    try {
      await user.click(await screen.findByRole('button', { name: 'Add to a wallet' }));
      dialog = await screen.findByRole('dialog', { name: 'Add to a digital wallet' });
      expect(within(dialog).getByRole('checkbox', { name: /Also ask the wallet for a 6-digit code/ })).toBeChecked();
      const again = await within(dialog).findByTestId('wallet-offer-tx-code');
      readBodies();
      expect(bodies.at(-1)).toEqual({ tx_code: true });
      expect(again).toHaveTextContent('Your wallet will ask for this one-time code.');
      await user.click(within(again).getByRole('button', { name: 'Show the code' }));
      expect(within(again).getByText('Code to type into the wallet: 0 4 2 9 1 7')).toBeInTheDocument();
    } finally {
      await changeLocale('fr');
      window.localStorage.removeItem('sceau.wallet-tx-code');
    }
  });
});

describe('my share links', () => {
  it('makes a link for the chosen time and note, shows its address once, and lists it', async () => {
    let shares = [share({ id: 1, state: 'expired', expires_at: '2026-11-21T10:00:00.000Z', label: null })];
    const { calls } = renderApp({
      path: `/my-diplomas/shares?diploma=${VALID}`,
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        'GET /api/holder/shares': () => jsonResponse({ data: shares }),
        'POST /api/holder/shares': () => {
          const made = share({ id: 2, label: 'Université de Kinshasa', expires_at: '2027-02-23T10:00:00.000Z' });
          shares = [made, ...shares];
          return jsonResponse({ data: { share: made, url: `http://localhost/shared/${TOKEN}` } }, 201);
        },
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByTestId('share-link')).toHaveAttribute('data-state', 'expired');
    await user.click(screen.getByRole('radio', { name: '90 jours' }));
    await user.type(screen.getByLabelText(/Note \(pour qui \?\)/), 'Université de Kinshasa');
    await user.click(screen.getByRole('button', { name: 'Créer le lien' }));

    const created = await screen.findByTestId('share-created');
    expect(within(created).getByLabelText('Adresse du lien')).toHaveValue(`http://localhost/shared/${TOKEN}`);
    const post = calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post!.init.body))).toEqual({
      diploma_id: VALID,
      days: 90,
      label: 'Université de Kinshasa',
      disclose: ['birth_date', 'school', 'percentage', 'photo'],
    });
    await waitFor(() => expect(screen.getAllByTestId('share-link')).toHaveLength(2));
    expect(screen.getAllByTestId('share-link')[0]).toHaveTextContent('Université de Kinshasa');
  });

  it('makes a link that shows only what I chose, and lists what each link shows', async () => {
    const { calls } = renderApp({
      path: '/my-diplomas/shares',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        'GET /api/holder/shares': () => jsonResponse({ data: [share({ disclosed: [] }), share({ id: 3, label: 'Ambassade', disclosed: ['birth_date', 'photo'] })] }),
        'POST /api/holder/shares': () => jsonResponse({ data: { share: share({ disclosed: ['birth_date', 'birth_place'] }), url: `http://localhost/shared/${TOKEN}` } }, 201),
      },
    });
    const user = userEvent.setup();
    const choices = await screen.findByRole('group', { name: 'Ce que le lien montre' });
    expect(within(choices).getByRole('checkbox', { name: 'Lieu de naissance' })).not.toBeChecked();
    expect(within(choices).getByRole('checkbox', { name: 'Date de naissance' })).toBeChecked();
    await user.click(within(choices).getByRole('checkbox', { name: 'Lieu de naissance' }));
    await user.click(within(choices).getByRole('checkbox', { name: 'Pourcentage obtenu' }));
    await user.click(within(choices).getByRole('checkbox', { name: "École et centre d'examen" }));
    await user.click(within(choices).getByRole('checkbox', { name: 'Photo' }));
    await user.click(screen.getByRole('button', { name: 'Créer le lien' }));
    await screen.findByTestId('share-created');
    expect(JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body)).disclose).toEqual(['birth_date', 'birth_place']);
    const [onlyName, embassy] = screen.getAllByTestId('share-shows');
    expect(onlyName).toHaveTextContent('Ne montre que le nom, le diplôme et la session');
    expect(embassy).toHaveTextContent('Montre : Date de naissance, Photo');
  });

  it("shows the server's refusal of the choice on it, in English", async () => {
    await changeLocale('en');
    try {
      renderApp({
        path: '/my-diplomas/shares',
        signedIn,
        routes: {
          'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
          'GET /api/holder/shares': () => jsonResponse({ data: [] }),
          'POST /api/holder/shares': () =>
            jsonResponse(
              {
                code: 'validation_failed',
                message: 'Invalid',
                errors: { disclose: ['Choose what the link shows among: date of birth, place of birth, school, percentage, photo'] },
              },
              422,
            ),
        },
      });
      const user = userEvent.setup();
      expect(await screen.findByRole('group', { name: 'What the link shows' })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Make the link' }));
      expect(await screen.findByText(/^Choose what the link shows among/)).toBeInTheDocument();
    } finally {
      await changeLocale('fr');
    }
  });

  it('makes a link that never expires', async () => {
    const { calls } = renderApp({
      path: '/my-diplomas/shares',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        'GET /api/holder/shares': () => jsonResponse({ data: [] }),
        'POST /api/holder/shares': () => jsonResponse({ data: { share: share({ expires_at: null }), url: `http://localhost/shared/${TOKEN}` } }, 201),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Sans expiration' }));
    await user.click(screen.getByRole('button', { name: 'Créer le lien' }));
    await screen.findByTestId('share-created');
    expect(JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body))).toMatchObject({ days: null });
  });

  it("shows the server's refusal on its field", async () => {
    renderApp({
      path: '/my-diplomas/shares',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        'GET /api/holder/shares': () => jsonResponse({ data: [] }),
        'POST /api/holder/shares': () => jsonResponse({ code: 'conflict', message: 'Conflit', errors: { diploma_id: ['Ce diplôme a déjà 20 liens de partage actifs'] } }, 409),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Créer le lien' }));
    expect(await screen.findByText('Ce diplôme a déjà 20 liens de partage actifs')).toBeInTheDocument();
  });

  it('revokes an active link', async () => {
    let shares = [share()];
    const { calls } = renderApp({
      path: '/my-diplomas/shares',
      signedIn,
      routes: {
        'GET /api/holder/diplomas': () => jsonResponse({ data: [diploma()] }),
        'GET /api/holder/shares': () => jsonResponse({ data: shares }),
        'DELETE /api/holder/shares/1': () => {
          shares = [share({ state: 'revoked', revoked_at: '2026-11-25T10:00:00.000Z' })];
          return jsonResponse({ data: shares[0] });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Révoquer le lien Employeur' }));
    await waitFor(() => expect(screen.getByTestId('share-link')).toHaveAttribute('data-state', 'revoked'));
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/holder/shares/1')).toBe(true);
    expect(screen.queryByRole('button', { name: /Révoquer/ })).toBeNull();
  });
});

describe('a shared diploma', () => {
  const view: SharedDiplomaView = {
    verdict: 'authentic',
    verdict_label: 'Authentique',
    checks: [{ name: 'issuer_signature', status: 'passed', title: 'Signature du ministère', message: 'Valide' }],
    diploma: {
      last_name: 'Kabamba',
      first_name: 'Élodie',
      option: 'Scientifique',
      session: 'Session 2025',
      percentage: 72.5,
      issuer: { id: 'minepst.gouv.cd', name: 'Ministère' },
    },
    diploma_kind: 'diplome_etat',
    disclosed: ['percentage', 'photo'],
    withheld: ['birth_date', 'birth_place', 'school'],
    presentation: true,
    expires_at: '2026-12-25T10:00:00.000Z',
    checked_at: '2026-11-25T10:00:00.000Z',
  };

  it('shows the verdict, the holder and the diploma, and until when the link works, to anyone (no account)', async () => {
    const { calls } = renderApp({ path: `/shared/${TOKEN}`, routes: { [`GET /api/shared/${TOKEN}`]: () => jsonResponse({ data: view }) } });
    expect(await screen.findByTestId('shared-verdict')).toHaveAttribute('data-verdict', 'authentic');
    expect(screen.getByTestId('shared-holder')).toHaveTextContent('Élodie Kabamba');
    expect(screen.getByText("Diplôme d'État")).toBeInTheDocument();
    expect(screen.getByTestId('shared-expiry')).toHaveTextContent('Ce lien de partage expire le');
    expect(screen.getByRole('img', { name: 'Photo de Élodie Kabamba' })).toHaveAttribute('src', `/api/shared/${TOKEN}/photo`);
    const call = calls.find((c) => c.url.pathname === `/api/shared/${TOKEN}`);
    expect(new Headers(call!.init.headers).get('authorization')).toBeNull();
  });

  it('says which fields the holder kept back, shows no photo they did not choose, and offers the SD-JWT of what is shown', async () => {
    renderApp({
      path: `/shared/${TOKEN}`,
      routes: {
        [`GET /api/shared/${TOKEN}`]: () =>
          jsonResponse({
            data: { ...view, disclosed: ['percentage'], withheld: ['birth_date', 'birth_place', 'school', 'photo'], diploma: { ...view.diploma, birth_place: undefined } },
          }),
      },
    });
    await screen.findByTestId('shared-verdict');
    const withheld = document.querySelectorAll('[data-withheld]');
    expect([...withheld].map((row) => row.querySelector('dt')!.textContent)).toEqual(['Date de naissance', 'Lieu de naissance', 'École', 'Photo']);
    for (const row of withheld) expect(row.querySelector('dd')).toHaveTextContent('non divulgué par le titulaire');
    expect(screen.getByText(/^72.5 %$/)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Photo de/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Télécharger le justificatif SD-JWT' })).toHaveAttribute('href', `/api/shared/${TOKEN}/sd-jwt`);
  });

  it('reads English, and offers no SD-JWT when the server gives none (a revoked diploma)', async () => {
    await changeLocale('en');
    try {
      renderApp({
        path: `/shared/${TOKEN}`,
        routes: { [`GET /api/shared/${TOKEN}`]: () => jsonResponse({ data: { ...view, verdict: 'revoked', verdict_label: 'Revoked', presentation: false } }) },
      });
      await screen.findByTestId('shared-verdict');
      expect(screen.getAllByText('not disclosed by the holder')).toHaveLength(3);
      expect(screen.queryByTestId('shared-sd-jwt')).toBeNull();
    } finally {
      await changeLocale('fr');
    }
  });

  it("says why a link no longer opens, in the server's words", async () => {
    renderApp({
      path: `/shared/${TOKEN}`,
      routes: {
        [`GET /api/shared/${TOKEN}`]: () =>
          jsonResponse({ code: 'not_found', message: 'Introuvable', errors: { token: ['Ce lien de partage a expiré : demandez un nouveau lien au titulaire du diplôme'] } }, 404),
      },
    });
    const refused = await screen.findByTestId('shared-refused');
    expect(within(refused).getByRole('alert')).toHaveTextContent('Ce lien de partage a expiré');
    expect(screen.queryByTestId('shared-verdict')).toBeNull();
  });
});
