// The platform's trust services over HTTP (ADR 0135): the local TSA answers OpenSSL's requests
// and OpenSSL verifies the answers against the development CA; the CRL is signed by that CA and
// names a revoked certificate once revoked; bounds on what a stranger sends are enforced.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createServices } from '../../services.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { loadMinistryKeys, type MinistryKeys } from '../keys/ministry-keys.ts';
import { TSA_REQUESTS_PER_MINUTE, timestampingRoutes } from './timestamping-routes.ts';
import { TimestampingService } from './timestamping-service.ts';

let ctx: TestContext;
let app: App;
let keys: MinistryKeys;
let timestamping: TimestampingService;
let dir: string;

function openssl(...args: string[]) {
  const result = spawnSync('openssl', args, { encoding: 'utf8', cwd: dir });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  ctx = await createTestApp({ PUBLIC_URL: 'https://diplomes.example.cd' });
  keys = await loadMinistryKeys(ctx.config.keys, pino({ level: 'silent' }));
  timestamping = new TimestampingService(ctx.config, keys);
  app = await buildApp({ db: ctx.db, config: ctx.config, services: { ...createServices(ctx.db, ctx.config), timestamping } });
  await app.ready();
  dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-tsa-routes-'));
  await writeFile(path.join(dir, 'ca.pem'), await readFile(path.join(ctx.config.keys.dir, 'development-ca.pem')));
  await writeFile(path.join(dir, 'data.bin'), 'a diploma');
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('POST /tsa', () => {
  it('answers an RFC 3161 request with a reply OpenSSL verifies against the development CA', async () => {
    expect(openssl('ts', '-query', '-data', 'data.bin', '-sha256', '-cert', '-out', 'req.tsq').status).toBe(0);
    const res = await app.inject({ method: 'POST', url: '/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: await readFile(path.join(dir, 'req.tsq')) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/timestamp-reply');
    await writeFile(path.join(dir, 'resp.tsr'), res.rawPayload);
    expect(openssl('ts', '-verify', '-queryfile', 'req.tsq', '-in', 'resp.tsr', '-CAfile', 'ca.pem').out).toContain('Verification: OK');
    expect(openssl('ts', '-reply', '-in', 'resp.tsr', '-text').out).toMatch(/Status: Granted\.[\s\S]*Hash Algorithm: sha256[\s\S]*Nonce: 0x/);
  });

  it('refuses a request larger than a time-stamp request can be (413) and another content type (415)', async () => {
    const big = await app.inject({ method: 'POST', url: '/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: Buffer.alloc(1025) });
    expect(big.statusCode).toBe(413);
    const json = await app.inject({ method: 'POST', url: '/tsa', payload: { hello: 'tsa' } });
    expect(json.statusCode).toBe(415);
    // Not a DER request: a rejection the client can read, not a server error.
    const junk = await app.inject({ method: 'POST', url: '/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: Buffer.from('not der') });
    expect(junk.statusCode).toBe(200);
    await writeFile(path.join(dir, 'junk.tsr'), junk.rawPayload);
    expect(openssl('ts', '-reply', '-in', 'junk.tsr', '-text').out).toContain('Status: Rejected');
  });

  it(`counts ${TSA_REQUESTS_PER_MINUTE} requests a minute per address, then answers 429`, { timeout: 60_000 }, async () => {
    const request = await readFile(path.join(dir, 'req.tsq'));
    const send = () => app.inject({ method: 'POST', url: '/tsa', remoteAddress: '203.0.113.9', headers: { 'content-type': 'application/timestamp-query' }, payload: request });
    const statuses: number[] = [];
    for (let i = 0; i < TSA_REQUESTS_PER_MINUTE; i++) statuses.push((await send()).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('is not served when TSA_URL names another TSA, and the CRL is served even while that TSA does not answer', async () => {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', DATA_DIR: path.dirname(ctx.config.keys.dir), TSA_URL: 'https://tsa.example/tsr' });
    const other = (await import('fastify')).default();
    await other.register(timestampingRoutes, { db: ctx.db, timestamping: new TimestampingService(config, keys) });
    const res = await other.inject({ method: 'POST', url: '/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: await readFile(path.join(dir, 'req.tsq')) });
    expect(res.statusCode).toBe(404);
    // The CRL does not depend on the TSA (which does not answer here).
    const crl = await other.inject({ method: 'GET', url: '/pki/ca.crl' });
    expect(crl.statusCode).toBe(200);
    expect(crl.headers['content-type']).toBe('application/pkix-crl');
    await other.close();
  });
});

describe('GET /pki/*', () => {
  it("publishes the CA's CRL: DER, signed by the CA, with a next update", async () => {
    const res = await app.inject({ method: 'GET', url: '/pki/ca.crl' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pkix-crl');
    await writeFile(path.join(dir, 'ca.crl'), res.rawPayload);
    const text = openssl('crl', '-inform', 'DER', '-in', 'ca.crl', '-CAfile', 'ca.pem', '-noout', '-text').out;
    expect(text).toContain('verify OK');
    expect(text).toMatch(/Next Update: /);
    expect(text).toContain('No Revoked Certificates');
  });

  it('publishes the CA and TSA certificates; the TSA certificate has the critical timeStamping usage and names the CRL', async () => {
    const ca = await app.inject({ method: 'GET', url: '/pki/ca.crt' });
    expect(ca.headers['content-type']).toBe('application/pkix-cert');
    expect(new X509Certificate(ca.rawPayload).subject).toContain('Sceau Development CA');
    const tsa = await app.inject({ method: 'GET', url: '/pki/tsa.crt' });
    expect(tsa.statusCode).toBe(200);
    await writeFile(path.join(dir, 'tsa.der'), tsa.rawPayload);
    const text = openssl('x509', '-inform', 'DER', '-in', 'tsa.der', '-noout', '-text').out;
    expect(text).toMatch(/X509v3 Extended Key Usage: critical\s+Time Stamping/);
    expect(text).toContain('URI:https://diplomes.example.cd/pki/ca.crl');
  });

  it('issues the CRL again at once when a certificate is revoked, and OpenSSL then finds it revoked', async () => {
    const tsaPem = new X509Certificate((await app.inject({ method: 'GET', url: '/pki/tsa.crt' })).rawPayload).toString();
    await writeFile(path.join(dir, 'tsa.pem'), tsaPem);
    const serial = new X509Certificate(tsaPem).serialNumber;
    await timestamping.revoke(serial, 'keyCompromise');
    const res = await app.inject({ method: 'GET', url: '/pki/ca.crl' });
    await writeFile(path.join(dir, 'revoked.crl'), res.rawPayload);
    expect(openssl('crl', '-inform', 'DER', '-in', 'revoked.crl', '-noout', '-text').out).toMatch(new RegExp(`Serial Number: 0*${serial.replace(/^0+/, '')}\\s`));
    openssl('crl', '-inform', 'DER', '-in', 'revoked.crl', '-out', 'revoked.pem');
    expect(openssl('verify', '-crl_check', '-CRLfile', 'revoked.pem', '-CAfile', 'ca.pem', 'tsa.pem').out).toContain('certificate revoked');
    await expect(timestamping.revoke('not-hex')).rejects.toThrow(/not a certificate serial number/);
  });
});
