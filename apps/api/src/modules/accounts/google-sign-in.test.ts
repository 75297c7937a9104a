import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';

// A local stand-in for Google's key endpoint, serving a key set the test signs with: the
// verification code under test is the one that runs against Google.
const CLIENT_ID = '1234-sceau.apps.googleusercontent.com';
let server: Server;
let googleKey: CryptoKey;
let strangerKey: CryptoKey;
let ctx: TestContext;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  googleKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'google-test-key', alg: 'RS256', use: 'sig' };
  server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  ctx = await createTestApp({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: `http://127.0.0.1:${port}/oauth2/v3/certs` });
});
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => server.close(resolve));
});

async function idToken(claims: Record<string, unknown>, options: { key?: CryptoKey; audience?: string; issuer?: string; expiresIn?: string } = {}) {
  return new SignJWT({ email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'google-test-key' })
    .setIssuer(options.issuer ?? 'https://accounts.google.com')
    .setAudience(options.audience ?? CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '1h')
    .sign(options.key ?? googleKey);
}

const byGoogle = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/auth/byGoogle', payload });

describe('POST /api/auth/byGoogle', () => {
  it('creates an account with no role from a valid token, then signs the same person in again', async () => {
    const token = await idToken({ sub: 'google-sub-1', email: 'Mireille.Banza@gmail.example', given_name: 'Mireille', family_name: 'Banza' });
    const first = await byGoogle({ id_token: token, google_id: 'google-sub-1', name: 'ignored', mail_or_phone: 'ignored@example.cd' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ email: 'mireille.banza@gmail.example', name: 'Banza', first_name: 'Mireille', roles: [], google_linked: true });
    const again = await byGoogle({ id_token: await idToken({ sub: 'google-sub-1', email: 'mireille.banza@gmail.example' }) });
    expect(again.json().data.id).toBe(first.json().data.id);
  });

  it('links Google to an existing account with the same verified e-mail', async () => {
    const res = await byGoogle({ id_token: await idToken({ sub: 'google-sub-admin', email: 'admin@sceau.example' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.roles.map((r: { name: string }) => r.name)).toEqual(['admin']);
  });

  it('takes the identity from the token, never from google_id', async () => {
    const token = await idToken({ sub: 'google-sub-2', email: 'someone@gmail.example' });
    const res = await byGoogle({ id_token: token, google_id: 'google-sub-admin' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_credentials');
  });

  it('refuses a token signed by another key, for another audience or issuer, or expired', async () => {
    const cases = [
      await idToken({ sub: 'x1', email: 'x1@gmail.example' }, { key: strangerKey }),
      await idToken({ sub: 'x2', email: 'x2@gmail.example' }, { audience: 'another-app' }),
      await idToken({ sub: 'x3', email: 'x3@gmail.example' }, { issuer: 'https://evil.example' }),
      await idToken({ sub: 'x4', email: 'x4@gmail.example' }, { expiresIn: '-10m' }),
      'not-a-jwt-at-all-but-long-enough',
    ];
    for (const token of cases) {
      const res = await byGoogle({ id_token: token });
      expect(res.statusCode).toBe(401);
    }
  });

  it('does not link by an unverified e-mail', async () => {
    const res = await byGoogle({ id_token: await idToken({ sub: 'google-sub-3', email: 'root@sceau.example', email_verified: false }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.roles).toEqual([]);
    expect(res.json().data.email).toBeNull();
  });
});

describe('without a Google client id', () => {
  it('is not offered', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/api/auth/byGoogle', payload: { id_token: await idToken({ sub: 'y' }) } });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
