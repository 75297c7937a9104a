import { webcrypto } from 'node:crypto';
import { fromBase45, toBase45 } from '@sceau/credential/base45';
import { generateEs256Jwk, toPublicJwk } from '@sceau/credential';
import { zlibDecompress } from '@sceau/credential/zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JWKS_PATH, KEYS_STORAGE_KEY, KeysUnavailableError, readCachedKeys } from '@/features/verification/offline-keys';
import { checkOffline } from '@/features/verification/offline-verify';
import { signedDemoPayload } from '@/features/verification/qr-test-support';
import { pinnedIssuers, trustListEntry, TRUST_LIST_FORMAT } from '@sceau/verifier/trust-list';

const subtle = webcrypto.subtle as SubtleCrypto;
const demo = await signedDemoPayload();

/** The same payload with one letter of the name changed and the original signature kept. */
function forged(text: string, from: string, to: string): string {
  const bytes = fromBase45(text.slice(4));
  const cose = bytes[0] === 0x78 ? zlibDecompress(bytes, 4096) : bytes;
  const [a, b] = [new TextEncoder().encode(from), new TextEncoder().encode(to)];
  const at = cose.findIndex((_, i) => a.every((byte, j) => cose[i + j] === byte));
  expect(at).toBeGreaterThan(0);
  const changed = cose.slice();
  changed.set(b, at);
  return `SC1:${toBase45(changed)}`;
}

function serveKeys(jwks: unknown, status = 200) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    expect(String(input)).toBe(JWKS_PATH);
    return new Response(JSON.stringify(jwks), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function offline() {
  const fetch = vi.fn(async () => {
    throw new TypeError('Failed to fetch');
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => localStorage.clear());

describe('offline check of the signed QR code', () => {
  it('verifies a real signed payload with WebCrypto, fetching the published keys once and caching them', async () => {
    const fetch = serveKeys(demo.jwks);
    const first = await checkOffline(demo.text, { subtle });
    expect(first.verification).toMatchObject({ status: 'valid', fields: { diploma_id: demo.diplomaId, last_name: 'Ngalula', first_name: 'Élodie', percentage: 72.5 } });
    expect(first.engine).toBe('webcrypto');
    expect(first.keysFromCache).toBe(false);
    // No issuer pinned by the bundled list (this checkout's): this platform's keys, and its issuer named.
    expect(first).toMatchObject({ pinned: false, issuer: { id: 'minepst.gouv.cd', name: expect.stringContaining('Ministère') } });
    expect(readCachedKeys()?.jwks).toEqual(demo.jwks);
    expect(fetch).toHaveBeenCalledTimes(1);

    // Then no server call at all, even with no network.
    const noNetwork = offline();
    const again = await checkOffline(demo.text, { subtle });
    expect(again.verification.status).toBe('valid');
    expect(again.keysFromCache).toBe(true);
    expect(again.keys?.fetchedAt).toBe(first.keys?.fetchedAt);
    expect(noNetwork).not.toHaveBeenCalled();
  });

  it('verifies it in JavaScript (@noble/curves) where WebCrypto is missing, with the same outcomes', async () => {
    serveKeys(demo.jwks);
    const check = await checkOffline(demo.text, { subtle: null });
    expect(check.engine).toBe('javascript');
    expect(check.verification).toMatchObject({ status: 'valid', fields: { diploma_id: demo.diplomaId } });
    const tampered = await checkOffline(forged(demo.text, 'Ngalula', 'Ngalulo'), { subtle: null });
    expect(tampered).toMatchObject({ verification: { status: 'bad-signature' }, engine: 'javascript' });
  });

  it('refuses a tampered payload: a changed name or percentage keeps no valid signature', async () => {
    serveKeys(demo.jwks);
    for (const [from, to] of [
      ['Ngalula', 'Ngalulo'],
      ['Élodie', 'Élodia'],
    ] as const) {
      const check = await checkOffline(forged(demo.text, from, to), { subtle });
      expect(check.verification).toEqual({ status: 'bad-signature', kid: expect.any(String) });
      expect(check.engine).toBe('webcrypto');
    }
    // Damaged beyond reading.
    const cut = await checkOffline(demo.text.slice(0, -5), { subtle });
    expect(cut.verification.status).toBe('malformed');
    expect(cut.engine).toBeNull();
  });

  it('does not trust a payload signed by a key the ministry did not publish', async () => {
    const other = await signedDemoPayload(generateEs256Jwk());
    const fetch = serveKeys(demo.jwks);
    const check = await checkOffline(other.text, { subtle });
    expect(check.verification).toEqual({ status: 'unknown-key', kid: expect.any(String) });
    expect(check.engine).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks again once for keys published since the cache was filled (rotation), when online', async () => {
    const rotated = await signedDemoPayload();
    localStorage.setItem(KEYS_STORAGE_KEY, JSON.stringify({ jwks: demo.jwks, fetchedAt: '2026-01-05T10:00:00.000Z' }));
    const fetch = serveKeys({ keys: [...demo.jwks.keys, ...rotated.jwks.keys] });
    const check = await checkOffline(rotated.text, { subtle });
    expect(check.verification.status).toBe('valid');
    expect(check.keysFromCache).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);

    // Offline, the cached set is all there is: the new key stays unknown.
    localStorage.setItem(KEYS_STORAGE_KEY, JSON.stringify({ jwks: demo.jwks, fetchedAt: '2026-01-05T10:00:00.000Z' }));
    offline();
    const stale = await checkOffline((await signedDemoPayload()).text, { subtle });
    expect(stale.verification.status).toBe('unknown-key');
    expect(stale.keys?.fetchedAt).toBe('2026-01-05T10:00:00.000Z');
  });

  it('needs the keys once: without cache nor network it says so', async () => {
    offline();
    await expect(checkOffline(demo.text, { subtle })).rejects.toBeInstanceOf(KeysUnavailableError);
    serveKeys({ error: 'nope' }, 500);
    await expect(checkOffline(demo.text, { subtle })).rejects.toBeInstanceOf(KeysUnavailableError);
    serveKeys({ not: 'a key set' });
    await expect(checkOffline(demo.text, { subtle })).rejects.toBeInstanceOf(KeysUnavailableError);
    // A corrupt cache is ignored, not trusted.
    localStorage.setItem(KEYS_STORAGE_KEY, '{"jwks":{"keys":"x"}}');
    expect(readCachedKeys()).toBeNull();
  });

  it('checks the key the QR names among several published ones', async () => {
    serveKeys({ keys: [toPublicJwk(generateEs256Jwk()), ...demo.jwks.keys, { kty: 'RSA', n: 'x', e: 'AQAB' }] });
    expect((await checkOffline(demo.text, { subtle })).verification.status).toBe('valid');
  });
});

describe('offline check pinned by the trust list (ADR 0133)', () => {
  const pinnedTo = (jwks: unknown) =>
    pinnedIssuers({
      format: TRUST_LIST_FORMAT,
      issuers: [
        trustListEntry(
          {
            id: 'minepst.gouv.cd',
            name: 'Ministère de l’Éducation nationale',
            name_en: 'Ministry of National Education',
            jwks_uri: 'https://minepst.gouv.cd/.well-known/jwks.json',
            registry: { chain_id: 72328, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
          },
          jwks,
        ),
      ],
    });
  const ministry = { id: 'minepst.gouv.cd', name: 'Ministère de l’Éducation nationale', nameEn: 'Ministry of National Education' };

  it('accepts a QR signed by a pinned key and names its issuer, with no server call and nothing kept', async () => {
    const fetch = offline();
    const check = await checkOffline(demo.text, { subtle, pinned: pinnedTo(demo.jwks) });
    expect(check).toMatchObject({ verification: { status: 'valid' }, pinned: true, issuer: ministry, expected: [ministry], keys: null });
    expect(fetch).not.toHaveBeenCalled();
    expect(readCachedKeys()).toBeNull();
  });

  it('refuses a QR signed by a key not in the pinned set, even one this server publishes and this browser keeps', async () => {
    const stranger = await signedDemoPayload();
    const fetch = serveKeys({ keys: [...demo.jwks.keys, ...stranger.jwks.keys] });
    localStorage.setItem(KEYS_STORAGE_KEY, JSON.stringify({ jwks: stranger.jwks, fetchedAt: '2026-01-05T10:00:00.000Z' }));
    const check = await checkOffline(stranger.text, { subtle, pinned: pinnedTo(demo.jwks) });
    expect(check).toMatchObject({ verification: { status: 'unknown-key' }, pinned: true, issuer: null, expected: [ministry] });
    expect(fetch).not.toHaveBeenCalled();

    // The same QR with this platform's keys (no list pinning an issuer) would pass: the pin is what refuses it.
    expect((await checkOffline(stranger.text, { subtle, pinned: [] })).verification.status).toBe('valid');
  });
});
