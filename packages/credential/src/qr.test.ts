import { generateKeyPairSync, createPublicKey, webcrypto } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it } from 'vitest';
import { TEST_ISSUER, TEST_ONLY_PRIVATE_JWK, TEST_RECORDS } from '../scripts/test-data.ts';
import { fromBase45, toBase45 } from './base45.ts';
import { bytesToUtf8, utf8ToBytes } from './bytes.ts';
import { hideFields, wrapBatch } from './document.ts';
import { createSoftwareSigner, generateEs256Jwk, toPublicJwk, type EcPublicJwk, type Es256Signer } from './keys.ts';
import { createNodeSigner, nodeZlibCompress } from './node-signer.ts';
import { encodeQrPayload, qrFieldsFromDocument, qrFieldsFromRecord, QR_PREFIX, qrVerification, readQrPayload, verifyQrPayload } from './qr.ts';
import { parseDiplomaRecord } from './record.ts';
import { zlibCompress } from './zlib.ts';

const signer = createSoftwareSigner(TEST_ONLY_PRIVATE_JWK);
const jwks = { keys: [toPublicJwk(TEST_ONLY_PRIVATE_JWK)] };
const doc = wrapBatch(TEST_RECORDS, { issuer: TEST_ISSUER }).documents[0]!;
const fields = qrFieldsFromRecord(parseDiplomaRecord(TEST_RECORDS[0]), doc.signature.targetHash);

describe('base45 (RFC 9285 examples)', () => {
  it('encodes and decodes the RFC vectors, and reads subarrays correctly', () => {
    const vectors: Array<[string, string]> = [
      ['AB', 'BB8'],
      ['Hello!!', '%69 VD92EX0'],
      ['base-45', 'UJCLQE7W581'],
      ['ietf!', 'QED8WEX0'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(toBase45(utf8ToBytes(plain))).toBe(encoded);
      expect(bytesToUtf8(fromBase45(encoded))).toBe(plain);
    }
    expect(toBase45(utf8ToBytes('xxAB').subarray(2))).toBe('BB8');
    expect(() => fromBase45('GGW')).toThrow(); // 65535 + 1: out of range
    expect(() => fromBase45('a')).toThrow();
  });
});

describe('QR payload', () => {
  it('a realistic record with long Congolese names fits the ~280-byte budget and verifies', async () => {
    const t0 = performance.now();
    const qr = await encodeQrPayload(fields, signer);
    const t1 = performance.now();
    const result = verifyQrPayload(qr.text, jwks);
    const t2 = performance.now();
    console.log(
      `QR payload: ${qr.cose.length} bytes COSE, ${qr.bytes.length} bytes before base45 ` +
        `(${qr.bytes === qr.cose ? 'uncompressed: zlib did not save bytes' : 'zlib'}), ${qr.text.length} characters; ` +
        `software sign ${(t1 - t0).toFixed(1)} ms, verify ${(t2 - t1).toFixed(1)} ms (first call, cold)`,
    );
    expect(qr.bytes.length).toBeLessThanOrEqual(280);
    expect(qr.text.startsWith(QR_PREFIX)).toBe(true);
    expect(qr.text).toMatch(/^SC1:[0-9A-Z $%*+\-./:]+$/);
    expect(result).toEqual({ status: 'valid', kid: jwks.keys[0]!.kid, fields });
    expect(fields.last_name).toBe('Mbuyamba-Tshibangu');
    expect(fields.target_hash).toBe(doc.signature.targetHash);
    expect(qrFieldsFromDocument(doc)).toEqual(fields);
    expect(() => qrFieldsFromDocument(hideFields(doc, ['percentage']))).toThrow('percentage');
  });

  it('reads a zlib-compressed payload as well (a long, repetitive one compresses)', async () => {
    const repetitive = { ...fields, last_name: 'Ka'.repeat(40), middle_name: 'Ka'.repeat(40) };
    const qr = await encodeQrPayload(repetitive, signer);
    expect(qr.bytes[0]).toBe(0x78);
    expect(qr.bytes.length).toBeLessThan(qr.cose.length);
    expect(verifyQrPayload(qr.text, jwks)).toMatchObject({ status: 'valid', fields: repetitive });
  });

  it('any changed byte is caught; a changed signature is a bad signature, a changed kid an unknown key', async () => {
    const qr = await encodeQrPayload(fields, signer);
    const statuses = new Set<string>();
    for (let i = 0; i < qr.bytes.length; i++) {
      const bytes = qr.bytes.slice();
      bytes[i]! ^= 0x01;
      const status = verifyQrPayload(QR_PREFIX + toBase45(bytes), jwks).status;
      expect(status, `byte ${i}`).not.toBe('valid');
      statuses.add(status);
    }
    expect([...statuses].sort()).toEqual(['bad-signature', 'malformed', 'unknown-key']);

    const sig = qr.cose.slice();
    sig[sig.length - 1]! ^= 0xff;
    expect(verifyQrPayload(QR_PREFIX + toBase45(sig), jwks).status).toBe('bad-signature');

    const kidAt = indexOf(qr.cose, Uint8Array.from(Buffer.from(jwks.keys[0]!.kid!, 'base64url')));
    const kid = qr.cose.slice();
    kid[kidAt]! ^= 0x01;
    expect(verifyQrPayload(QR_PREFIX + toBase45(kid), jwks).status).toBe('unknown-key');

    const nameAt = indexOf(qr.cose, utf8ToBytes('Mbuyamba'));
    const renamed = qr.cose.slice();
    renamed[nameAt] = 'N'.charCodeAt(0);
    expect(verifyQrPayload(QR_PREFIX + toBase45(renamed), jwks).status).toBe('bad-signature');
  });

  it('a forged QR signed by another key is an unknown key; a wrong JWKS too', async () => {
    const forger = createSoftwareSigner(generateEs256Jwk(), jwks.keys[0]!.kid); // even claiming our kid string
    const forged = await encodeQrPayload({ ...fields, percentage: 99.9 }, forger);
    expect(verifyQrPayload(forged.text, jwks).status).toBe('bad-signature');
    const qr = await encodeQrPayload(fields, signer);
    expect(verifyQrPayload(qr.text, { keys: [toPublicJwk(generateEs256Jwk())] }).status).toBe('unknown-key');
    expect(verifyQrPayload(qr.text, { keys: [] }).status).toBe('unknown-key');
    expect(verifyQrPayload(qr.text, { keys: [{ kty: 'RSA' }, null, 'x'] }).status).toBe('unknown-key');
    expect(verifyQrPayload(qr.text, null as never).status).toBe('unknown-key');
  });

  it('finds the key by the JWKS kid string when the signer names its key that way', async () => {
    const jwk = generateEs256Jwk();
    const qr = await encodeQrPayload(fields, createSoftwareSigner(jwk, 'ministere-2025'));
    const published: EcPublicJwk = { ...toPublicJwk(jwk), kid: 'ministere-2025' };
    expect(verifyQrPayload(qr.text, { keys: [published] })).toMatchObject({ status: 'valid', kid: 'bWluaXN0ZXJlLTIwMjU' });
  });

  it('compressed by node:zlib instead of pako, the payload reads and verifies the same', async () => {
    const ours = await encodeQrPayload(fields, signer, { compress: nodeZlibCompress });
    expect(verifyQrPayload(ours.text, jwks)).toMatchObject({ status: 'valid', fields });
    // The same deflate at the same level: the same bytes as pako's for the same COSE message.
    expect(Buffer.from(nodeZlibCompress(ours.cose)).equals(Buffer.from(zlibCompress(ours.cose)))).toBe(true);
  });

  it('node:crypto signatures (ieee-p1363) verify, high-S included', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const nodeSigner = createNodeSigner(privateKey);
    const pub = toPublicJwk(createPublicKey(privateKey).export({ format: 'jwk' }) as EcPublicJwk);
    const keys = { keys: [pub] };
    const qr = await encodeQrPayload(fields, nodeSigner);
    expect(verifyQrPayload(qr.text, keys).status).toBe('valid');
    expect(createNodeSigner(TEST_ONLY_PRIVATE_JWK as never).kid).toEqual(signer.kid);

    // Flip s to n - s: still a valid ECDSA signature (node may produce either form).
    const highS: Es256Signer = {
      kid: nodeSigner.kid,
      sign: async (data) => {
        const sig = p256.Signature.fromBytes(await nodeSigner.sign(data), 'compact');
        const flipped = new p256.Signature(sig.r, p256.Point.Fn.ORDER - sig.s);
        return flipped.toBytes('compact');
      },
    };
    expect(verifyQrPayload((await encodeQrPayload(fields, highS)).text, keys).status).toBe('valid');
  });

  it('malformed input gives a clear status, never an exception', async () => {
    const bomb = QR_PREFIX + toBase45(zlibCompress(new Uint8Array(100_000)));
    const inputs: unknown[] = ['', 'SC1:', 'HC1:NCFOXN%TS3DH', 'SC1:abc', 'SC1:GGW', 'SC1:00', bomb, 'SC1:' + 'A'.repeat(5000), 42];
    for (const input of inputs) {
      const result = verifyQrPayload(input as string, jwks);
      expect(result.status, String(input).slice(0, 20)).toBe('malformed');
      if (result.status === 'malformed') expect(result.error.length).toBeGreaterThan(0);
    }
    const deflated = zlibCompress((await encodeQrPayload(fields, signer)).cose);
    const trailing = new Uint8Array(deflated.length + 1);
    trailing.set(deflated);
    const badCheck = deflated.slice();
    badCheck[badCheck.length - 1]! ^= 1;
    const zlibErrors: Array<[Uint8Array, string]> = [
      [deflated, ''],
      [trailing, 'after the end'],
      [deflated.slice(0, -2), 'truncated'],
      [badCheck, 'incorrect data check'],
    ];
    for (const [bytes, message] of zlibErrors) {
      const result = verifyQrPayload(QR_PREFIX + toBase45(bytes), jwks);
      if (message === '') expect(result.status).toBe('valid');
      else expect(result).toMatchObject({ status: 'malformed', error: expect.stringContaining(message) });
    }
    const qr = await encodeQrPayload(fields, signer);
    expect(verifyQrPayload(qr.text + '\r\n', jwks).status).toBe('valid');
    expect(verifyQrPayload(qr.text.slice(0, -3), jwks).status).toBe('malformed');
    await expect(encodeQrPayload({ ...fields, candidate_code: '12' }, signer)).rejects.toThrow('candidate_code');
    const shortSig: Es256Signer = { kid: 'k', sign: async () => new Uint8Array(70) };
    await expect(encodeQrPayload(fields, shortSig)).rejects.toThrow('64-byte');
  });
});

describe('QR reading without elliptic-curve code (qr-codec.ts, for browsers)', () => {
  it('gives the signed bytes, the signature and the key, which WebCrypto checks as @noble/curves does', async () => {
    const qr = await encodeQrPayload(fields, signer);
    const reading = readQrPayload(qr.text, jwks);
    if (reading.status !== 'signed') throw new Error(`expected a signed reading, got ${reading.status}`);
    const { kty, crv, x, y } = reading.jwk;
    const key = await webcrypto.subtle.importKey('jwk', { kty, crv, x, y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const check = (signature: Uint8Array, signed: Uint8Array) => webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, signed);
    expect(await check(reading.signature, reading.signed)).toBe(true);
    expect(qrVerification(reading, true)).toEqual(verifyQrPayload(qr.text, jwks));
    expect(qrVerification(reading, true)).toEqual({ status: 'valid', kid: reading.kid, fields });

    const altered = reading.signed.slice();
    altered[altered.length - 1]! ^= 1;
    expect(await check(reading.signature, altered)).toBe(false);
    expect(qrVerification(reading, false)).toEqual({ status: 'bad-signature', kid: reading.kid });
  });

  it('says which key is missing, or what is malformed, before any signature check', async () => {
    const qr = await encodeQrPayload(fields, signer);
    const other = { keys: [toPublicJwk(generateEs256Jwk())] };
    const { kid } = readQrPayload(qr.text, jwks) as { kid: string };
    expect(readQrPayload(qr.text, other)).toEqual({ status: 'unknown-key', kid });
    expect(readQrPayload('https://example.org/verify/x', jwks)).toMatchObject({ status: 'malformed' });
    expect(readQrPayload(QR_PREFIX + 'not base45 ###', jwks)).toMatchObject({ status: 'malformed' });
  });
});

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}
