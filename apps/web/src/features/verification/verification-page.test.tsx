import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromBase45, toBase45 } from '@sceau/credential/base45';
import { zlibDecompress } from '@sceau/credential/zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetNativeQrDetector } from '@/features/verification/qr-decode';
import { imageFile, qrPhoto, signedDemoPayload } from '@/features/verification/qr-test-support';
import { DIPLOMA_ID, result } from '@/features/verification/verification-fixtures';
import { jsonResponse } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const VERIFY = 'POST /api/generations/verify';

// jsdom has no image decoder nor canvas: the photo's pixels come from sharp, as a browser's decoder
// would give them. Everything after (the QR decoder, the verification) is the app's own code.
vi.mock('@/features/verification/qr-pixels', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/verification/qr-pixels')>();
  const { default: sharp } = await import('sharp');
  return {
    ...actual,
    readImagePixels: async (file: Blob) => {
      const decoded = await sharp(Buffer.from(await file.arrayBuffer()))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
        .catch((error: unknown) => {
          throw new actual.UnreadableImageError(error);
        });
      return { width: decoded.info.width, height: decoded.info.height, data: new Uint8ClampedArray(decoded.data) };
    },
  };
});

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
    // Base45 has a space in its alphabet: a real payload can hold spaces.
    await user.type(field, '  SC1:6BFOXN*TS0 DLHC9 ');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'incomplete');
    expect(sentForm(calls).get('cert_url')).toBe('SC1:6BFOXN*TS0 DLHC9');

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

  it("shows a field's error in the language chosen after it appeared", async () => {
    renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Lien du diplôme'), 'pas un lien');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Lien invalide')).toBeInTheDocument();
    const { i18n } = await import('@/lib/i18n');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByText('Invalid link')).toBeInTheDocument();
    expect(screen.queryByText('Lien invalide')).not.toBeInTheDocument();
  });

  it('shows the field message of a 422 next to the link', async () => {
    renderApp({
      path: '/verification',
      routes: {
        [VERIFY]: () => jsonResponse({ code: 'validation_failed', message: 'Données invalides', errors: { cert_url: ['Ce lien ne mène pas à un diplôme de la plateforme'] } }, 422),
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
          jsonResponse(
            {
              code: 'validation_failed',
              message: 'Données invalides',
              errors: { cert_document: ["Ce fichier n'est ni un diplôme PDF, ni des données de diplôme, ni le contenu d'un code QR de diplôme"] },
            },
            422,
          ),
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

const demo = await signedDemoPayload();
const demoLink = `http://localhost:3000/verify/${demo.diplomaId}`;
const photoOf = async (texts: string[]) => imageFile(await qrPhoto(texts, { rotate: 12, width: 1100, noise: 10, blur: 0.7 }), 'IMG_2041.jpg', 'image/jpeg');

/** The demo payload with a letter of the name changed and its signature kept. */
function forged(text: string): string {
  const bytes = fromBase45(text.slice(4));
  const cose = bytes[0] === 0x78 ? zlibDecompress(bytes, 4096) : bytes;
  const name = new TextEncoder().encode('Ngalula');
  const at = cose.findIndex((_, i) => name.every((byte, j) => cose[i + j] === byte));
  const changed = cose.slice();
  changed[at + 6] = 'o'.charCodeAt(0);
  return `SC1:${toBase45(changed)}`;
}

describe('/verification by a photo of a QR code', () => {
  it('reads the signed QR code of a photo and verifies its text as cert_url', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic', { source: 'qr' })) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    const input = screen.getByLabelText('Document du diplôme');
    expect(input).toHaveAttribute('accept', expect.stringContaining('image/*'));
    await user.upload(input, await photoOf([demo.text]));
    expect(await screen.findByText('Code QR lu : les données signées du diplôme.', {}, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    expect(sentForm(calls).get('cert_url')).toBe(demo.text);
    expect(sentForm(calls).get('cert_document')).toBeNull();
  });

  it('verifies the link QR code by the diploma id', async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [`GET /api/verify/${demo.diplomaId}`]: () => jsonResponse(result('revoked', { source: 'link' })) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    await user.upload(screen.getByLabelText('Document du diplôme'), await photoOf([demoLink]));
    expect(await screen.findByText('Code QR lu : le lien de vérification du diplôme.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vérifier hors ligne' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'revoked');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("says clearly when the photo has no QR code, or one that is not a diploma's, and sends nothing", async () => {
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic')) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    const input = screen.getByLabelText('Document du diplôme');
    await user.upload(input, await photoOf([]));
    const message = await screen.findByText(/Aucun code QR lisible sur cette image/, {}, { timeout: 5000 });
    expect(message).toHaveAttribute('id', 'verify-document-error');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(input).toHaveFocus();

    await user.upload(input, await photoOf(['https://example.com/menu-du-jour']));
    expect(await screen.findByText("Ce code QR n'est pas celui d'un diplôme de la plateforme.", {}, { timeout: 5000 })).toBeInTheDocument();
    await user.upload(input, new File(['pas une image'], 'photo.png', { type: 'image/png' }));
    expect(await screen.findByText(/Cette image ne peut pas être lue/)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' || c.url.pathname.startsWith('/api/verify'))).toHaveLength(0);
  });
});

describe('/verification offline', () => {
  it('checks the signed QR code in the browser, says what was checked offline and what needs the network, then completes online', async () => {
    const { calls } = renderApp({
      path: '/verification',
      routes: { 'GET /.well-known/jwks.json': () => jsonResponse(demo.jwks), [VERIFY]: () => jsonResponse(result('authentic', { source: 'qr' })) },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Document'));
    await user.upload(screen.getByLabelText('Document du diplôme'), await photoOf([demo.text]));
    await user.click(await screen.findByRole('button', { name: 'Vérifier hors ligne' }, { timeout: 5000 }));

    const banner = await screen.findByTestId('offline-banner');
    expect(banner).toHaveAttribute('data-status', 'valid');
    expect(banner).toHaveTextContent('Signature du ministère valide');
    expect(screen.getByRole('heading', { name: 'Vérification hors ligne' })).toHaveFocus();
    const offline = within(screen.getByTestId('offline-checks'));
    expect(offline.getAllByRole('listitem').map((li) => [li.dataset.offlineCheck, li.dataset.status])).toEqual([
      ['published_key', 'passed'],
      ['qr_signature', 'passed'],
    ]);
    expect(screen.getByTestId('offline-checks')).toHaveTextContent(/récupérées le .* et enregistrées/);
    const online = within(screen.getByTestId('offline-online-checks'));
    expect(online.getAllByRole('listitem').map((li) => [li.dataset.offlineCheck, li.dataset.status])).toEqual([
      ['anchored', 'online'],
      ['not_revoked', 'online'],
      ['pdf_signature', 'online'],
    ]);
    expect(screen.getByTestId('offline-diploma')).toHaveTextContent('Ngalula Kabamba Élodie');
    expect(screen.getByTestId('offline-diploma')).toHaveTextContent(demo.diplomaId);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Compléter la vérification en ligne' }));
    expect(await screen.findByTestId('verdict-banner')).toHaveAttribute('data-verdict', 'authentic');
    expect(sentForm(calls).get('cert_url')).toBe(demo.text);

    // The keys are cached: a second check makes no call at all.
    const before = calls.length;
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    expect(await screen.findByTestId('offline-banner')).toHaveAttribute('data-status', 'valid');
    expect(screen.getByTestId('offline-checks')).toHaveTextContent(/aucun appel au serveur/);
    expect(calls.length).toBe(before);
  });

  it('calls a changed QR code invalid, and one signed by an unknown key unknown', async () => {
    renderApp({ path: '/verification', routes: { 'GET /.well-known/jwks.json': () => jsonResponse(demo.jwks) } });
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Lien du diplôme');
    fireEvent.change(field, { target: { value: forged(demo.text) } });
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    expect(await screen.findByTestId('offline-banner')).toHaveAttribute('data-status', 'bad-signature');
    expect(screen.getByTestId('offline-banner')).toHaveTextContent('Signature invalide');
    expect(
      within(screen.getByTestId('offline-checks'))
        .getAllByRole('listitem')
        .map((li) => li.dataset.status),
    ).toEqual(['passed', 'failed']);
    expect(screen.queryByTestId('offline-diploma')).toBeNull();

    const stranger = await signedDemoPayload();
    fireEvent.change(field, { target: { value: stranger.text } });
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    await waitFor(() => expect(screen.getByTestId('offline-banner')).toHaveAttribute('data-status', 'unknown-key'));
    expect(
      within(screen.getByTestId('offline-checks'))
        .getAllByRole('listitem')
        .map((li) => [li.dataset.offlineCheck, li.dataset.status]),
    ).toEqual([['published_key', 'failed']]);
  });

  it('says the keys are needed once when none are cached and the network is down', async () => {
    renderApp({
      path: '/verification',
      routes: {
        'GET /.well-known/jwks.json': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const user = userEvent.setup();
    fireEvent.change(await screen.findByLabelText('Lien du diplôme'), { target: { value: demo.text } });
    await user.click(screen.getByRole('button', { name: 'Vérifier hors ligne' }));
    expect(await screen.findByTestId('offline-error')).toHaveTextContent('Une première connexion au réseau est nécessaire');
  });
});

describe('/verification with the camera', () => {
  const stops: Array<ReturnType<typeof vi.fn>> = [];

  function fakeCamera(getUserMedia: () => Promise<MediaStream>) {
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(getUserMedia) } });
  }

  function fakeStream(): MediaStream {
    const stop = vi.fn();
    stops.push(stop);
    return { getTracks: () => [{ stop }] } as unknown as MediaStream;
  }

  beforeEach(() => {
    stops.length = 0;
    resetNativeQrDetector();
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(4);
    vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(1280);
    vi.spyOn(HTMLVideoElement.prototype, 'videoHeight', 'get').mockReturnValue(720);
  });

  afterEach(() => {
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it("reads a QR code from the camera (the browser's BarcodeDetector), closes the camera and verifies by id", async () => {
    fakeCamera(async () => fakeStream());
    const seen: unknown[] = [];
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        static getSupportedFormats = async () => ['qr_code', 'ean_13'];
        async detect(source: unknown) {
          seen.push(source);
          // A first frame with someone else's QR code, then the diploma's.
          return seen.length === 1 ? [{ rawValue: 'https://example.com/promo', format: 'qr_code' }] : [{ rawValue: demoLink, format: 'qr_code' }];
        }
      },
    );
    const { calls } = renderApp({ path: '/verification', routes: { [`GET /api/verify/${demo.diplomaId}`]: () => jsonResponse(result('authentic', { source: 'link' })) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Caméra'));
    await user.click(await screen.findByRole('button', { name: 'Ouvrir la caméra' }));
    expect(await screen.findByTestId('verdict-banner', {}, { timeout: 5000 })).toHaveAttribute('data-verdict', 'authentic');
    expect(seen[0]).toBeInstanceOf(HTMLVideoElement);
    expect(stops[0]).toHaveBeenCalled();
    expect(calls.some((c) => c.url.pathname === `/api/verify/${demo.diplomaId}`)).toBe(true);
    expect(screen.getByText('Code QR lu : le lien de vérification du diplôme.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vérifier' })).toBeNull();
  });

  it('closes the camera when the person leaves the camera mode', async () => {
    fakeCamera(async () => fakeStream());
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        static getSupportedFormats = async () => ['qr_code'];
        async detect() {
          return [];
        }
      },
    );
    renderApp({ path: '/verification' });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Caméra'));
    await user.click(await screen.findByRole('button', { name: 'Ouvrir la caméra' }));
    expect(await screen.findByText("Recherche d'un code QR…")).toBeInTheDocument();
    expect(stops[0]).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText('Lien'));
    expect(stops[0]).toHaveBeenCalled();
  });

  it('explains why the camera cannot be used without a secure connection and offers a photo taken with the camera app', async () => {
    vi.stubGlobal('isSecureContext', false);
    const { calls } = renderApp({ path: '/verification', routes: { [VERIFY]: () => jsonResponse(result('authentic', { source: 'qr' })) } });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Caméra'));
    const fallback = await screen.findByTestId('camera-fallback');
    expect(fallback).toHaveAttribute('data-problem', 'insecure');
    expect(fallback).toHaveTextContent("Le navigateur n'ouvre la caméra que sur une connexion sécurisée");
    const input = screen.getByLabelText('Photo du code QR');
    expect(input).toHaveAttribute('accept', 'image/*');
    expect(input).toHaveAttribute('capture', 'environment');
    await user.upload(input, await photoOf([demo.text]));
    expect(await screen.findByTestId('verdict-banner', {}, { timeout: 5000 })).toHaveAttribute('data-verdict', 'authentic');
    expect(sentForm(calls).get('cert_url')).toBe(demo.text);
  });

  it('explains a refused camera permission, and a missing camera', async () => {
    const refusal = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    fakeCamera(async () => {
      throw refusal;
    });
    renderApp({ path: '/verification' });
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Caméra'));
    await user.click(await screen.findByRole('button', { name: 'Ouvrir la caméra' }));
    expect(await screen.findByTestId('camera-fallback')).toHaveTextContent("L'accès à la caméra a été refusé");
    expect(screen.getByLabelText('Photo du code QR')).toHaveAttribute('capture', 'environment');

    Object.assign(refusal, { name: 'NotFoundError' });
    await user.click(screen.getByRole('button', { name: 'Ouvrir la caméra' }));
    await waitFor(() => expect(screen.getByTestId('camera-fallback')).toHaveAttribute('data-problem', 'noCamera'));
    expect(screen.getByTestId('camera-fallback')).toHaveTextContent("Aucune caméra n'a été trouvée");
  });
});
