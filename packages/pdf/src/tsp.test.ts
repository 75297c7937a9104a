// RFC 3161: the local TSA answers OpenSSL's requests and OpenSSL verifies its answers; the HTTP
// client is checked against a local HTTP TSA speaking the real protocol, honest and dishonest.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { TimeStampReq } from '@peculiar/asn1-tsp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeySigner } from './cms.ts';
import { createDevelopmentPki, createDevelopmentTsa, type DevelopmentPki, type DevelopmentTsa } from './dev-pki.ts';
import {
  MAX_TIME_STAMP_REQUEST_BYTES,
  TimeStampError,
  createHttpTimeStamper,
  createLocalTimeStampAuthority,
  createTimeStampRequest,
  readTimeStampResponse,
  verifyTimeStampToken,
  type LocalTimeStampAuthority,
} from './tsp.ts';

let dir: string;
let pki: DevelopmentPki;
let tsaPki: DevelopmentTsa;
let tsa: LocalTimeStampAuthority;
let server: Server;
let url: string;
/** How the test TSA misbehaves for the next request. */
let mode: 'honest' | 'other-nonce' | 'other-imprint' | 'huge' | 'slow' | 'html' | 'http-500' | 'garbage' = 'honest';

function openssl(...args: string[]) {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sceau-tsp-'));
  pki = await createDevelopmentPki();
  tsaPki = await createDevelopmentTsa({ ca: { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem } });
  tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: tsaPki.privateKeyPem, certificateChainDer: tsaPki.certificateChainDer }) });
  writeFileSync(join(dir, 'ca.pem'), pki.caCertificatePem);
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const send = (bytes: Uint8Array, type = 'application/timestamp-reply', status = 200) => {
      response.writeHead(status, { 'content-type': type });
      response.end(bytes);
    };
    if (mode === 'html') return send(Buffer.from('<html>proxy login</html>'), 'text/html');
    if (mode === 'http-500') return send(Buffer.from('down'), 'text/plain', 500);
    if (mode === 'garbage') return send(randomBytes(40));
    if (mode === 'slow') return setTimeout(async () => send(await tsa.respond(body)), 2000);
    if (mode === 'huge') {
      response.writeHead(200, { 'content-type': 'application/timestamp-reply' });
      response.write(Buffer.alloc(40_000));
      response.end(Buffer.alloc(40_000));
      return;
    }
    if (mode === 'other-nonce') {
      const asked = new Uint8Array(AsnConvert.parse(body, TimeStampReq).messageImprint.hashedMessage.buffer);
      return send(await tsa.respond(createTimeStampRequest(asked, { nonce: randomBytes(8) })));
    }
    if (mode === 'other-imprint') return send(await tsa.respond(createTimeStampRequest(randomBytes(32))));
    return send(await tsa.respond(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the local TSA, checked by OpenSSL', () => {
  it("answers OpenSSL's request with a response `openssl ts -verify` accepts against the CA", async () => {
    writeFileSync(join(dir, 'data.bin'), 'a diploma');
    expect(openssl('ts', '-query', '-data', join(dir, 'data.bin'), '-sha256', '-cert', '-out', join(dir, 'req.tsq')).status).toBe(0);
    const response = await tsa.respond(readFileSync(join(dir, 'req.tsq')));
    writeFileSync(join(dir, 'resp.tsr'), response);
    const verified = openssl('ts', '-verify', '-queryfile', join(dir, 'req.tsq'), '-in', join(dir, 'resp.tsr'), '-CAfile', join(dir, 'ca.pem'));
    expect(verified.out).toContain('Verification: OK');
    const text = openssl('ts', '-reply', '-in', join(dir, 'resp.tsr'), '-text').out;
    expect(text).toContain('Status: Granted.');
    expect(text).toContain('Hash Algorithm: sha256');
    expect(text).toContain('Nonce: 0x');
    // Data other than what was stamped is refused by OpenSSL.
    writeFileSync(join(dir, 'other.bin'), 'another diploma');
    expect(openssl('ts', '-verify', '-data', join(dir, 'other.bin'), '-in', join(dir, 'resp.tsr'), '-CAfile', join(dir, 'ca.pem')).out).not.toContain('Verification: OK');
  });

  it('writes its integers in the shortest form OpenSSL demands, whatever the random serial and the nonce', async () => {
    // A serial or nonce whose first byte is 0 followed by one below 0x80 must lose that byte;
    // OpenSSL refuses the padded form ("illegal padding"). These nonces are such numbers.
    for (const nonce of [Uint8Array.of(0, 0x12, 0x34), Uint8Array.of(0, 0, 0x80, 1), Uint8Array.of(0x80, 0, 0)]) {
      const request = createTimeStampRequest(createHash('sha256').update('a diploma').digest(), { nonce });
      writeFileSync(join(dir, 'nonce.tsq'), request);
      writeFileSync(join(dir, 'nonce.tsr'), await tsa.respond(request));
      const verified = openssl('ts', '-verify', '-queryfile', join(dir, 'nonce.tsq'), '-in', join(dir, 'nonce.tsr'), '-CAfile', join(dir, 'ca.pem'));
      expect(verified.out).toContain('Verification: OK');
    }
    // The serial is 16 random bytes: one token in 512 drew a padded one before. Many tokens, each checked.
    const imprint = createHash('sha256').update('a diploma').digest();
    for (let i = 0; i < 1500; i++) {
      const { info } = readTimeStampResponse(await tsa.respond(createTimeStampRequest(imprint)), { imprint });
      expect(info.serialNumberHex).not.toMatch(/^00[0-7]/);
    }
  });

  it('has a certificate with the critical timeStamping extended key usage, issued by the CA', () => {
    writeFileSync(join(dir, 'tsa.pem'), tsaPki.certificatePem);
    const text = openssl('x509', '-in', join(dir, 'tsa.pem'), '-noout', '-text').out;
    expect(text).toMatch(/X509v3 Extended Key Usage: critical\s+Time Stamping\s/);
    expect(openssl('verify', '-CAfile', join(dir, 'ca.pem'), '-purpose', 'timestampsign', join(dir, 'tsa.pem')).out).toContain('OK');
  });

  it('rejects, with a status OpenSSL reads, requests it cannot honour; a request larger than its bound is not parsed', async () => {
    expect(openssl('ts', '-query', '-data', join(dir, 'data.bin'), '-sha1', '-out', join(dir, 'sha1.tsq')).status).toBe(0);
    writeFileSync(join(dir, 'sha1.tsr'), await tsa.respond(readFileSync(join(dir, 'sha1.tsq'))));
    const sha1 = openssl('ts', '-reply', '-in', join(dir, 'sha1.tsr'), '-text').out;
    expect(sha1).toContain('Status: Rejected');
    expect(sha1).toContain('only SHA-256 imprints are accepted');
    expect(sha1).toMatch(/Failure info:\s*unrecognized or unsupported algorithm/);
    const big = await tsa.respond(new Uint8Array(MAX_TIME_STAMP_REQUEST_BYTES + 1));
    expect(() => readTimeStampResponse(big, { imprint: new Uint8Array(32) })).toThrow(/refused: rejected \(badDataFormat\): request larger than 1024 bytes/);
    const junk = await tsa.respond(randomBytes(50));
    expect(() => readTimeStampResponse(junk, { imprint: new Uint8Array(32) })).toThrow(/not a DER TimeStampReq/);
    const policy = await tsa.respond(createTimeStampRequest(new Uint8Array(32), { policy: '1.2.3.4' }));
    expect(() => readTimeStampResponse(policy, { imprint: new Uint8Array(32) })).toThrow(/unacceptedPolicy/);
  });

  it('refuses to stamp after its certificate expired', async () => {
    const late = createLocalTimeStampAuthority({
      signer: createKeySigner({ privateKey: tsaPki.privateKeyPem, certificateChainDer: tsaPki.certificateChainDer }),
      now: () => new Date(Date.now() + 50 * 365 * 86400e3),
    });
    await expect(late.timestamp(new Uint8Array(32))).rejects.toThrow(/certificate has expired/);
  });

  it('will not run with a certificate that is not a time-stamping one', () => {
    expect(() => createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: pki.signingPrivateKeyPem, certificateChainDer: pki.certificateChainDer }) })).toThrow(
      /timeStamping/,
    );
  });
});

describe('the HTTP client', () => {
  const imprint = createHash('sha256').update('document').digest();

  it('gets a token from an RFC 3161 TSA over HTTP, over the imprint it sent', async () => {
    mode = 'honest';
    const client = createHttpTimeStamper({ url });
    const token = await client.timestamp(imprint);
    const info = verifyTimeStampToken(token, { imprint });
    expect(Buffer.from(info.tsaCertificateDer)).toEqual(Buffer.from(tsaPki.certificateDer));
    expect(Math.abs(info.genTime.getTime() - Date.now())).toBeLessThan(5000);
    expect(info.nonce).not.toBeNull();
  });

  it.each([
    ['other-nonce', /nonce is not the one sent/],
    ['other-imprint', /imprint is not the one requested/],
    ['html', /answered text\/html, not application\/timestamp-reply/],
    ['http-500', /answered HTTP 500/],
    ['garbage', /unreadable time-stamp response/],
  ] as const)('refuses a TSA answer that is wrong: %s', async (wrong, message) => {
    mode = wrong;
    await expect(createHttpTimeStamper({ url }).timestamp(imprint)).rejects.toThrow(message);
  });

  it('stops reading an answer larger than its bound, and gives up on a TSA that does not answer in time', async () => {
    mode = 'huge';
    await expect(createHttpTimeStamper({ url, maxResponseBytes: 16 * 1024 }).timestamp(imprint)).rejects.toMatchObject({ code: 'too_large' });
    mode = 'slow';
    const started = Date.now();
    await expect(createHttpTimeStamper({ url, timeoutMs: 300 }).timestamp(imprint)).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('says which TSA is unreachable', async () => {
    const error = await createHttpTimeStamper({ url: 'http://127.0.0.1:1/tsa' })
      .timestamp(imprint)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeStampError);
    expect((error as TimeStampError).message).toContain('http://127.0.0.1:1/tsa is unreachable');
  });

  it('refuses a token whose signature was tampered with', async () => {
    const token = Uint8Array.from(await tsa.timestamp(imprint));
    token[token.length - 5]! ^= 0x01;
    expect(() => verifyTimeStampToken(token, { imprint })).toThrow(TimeStampError);
  });
});
