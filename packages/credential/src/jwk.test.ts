import { describe, expect, it } from 'vitest';
import { utf8ToBytes } from './bytes.ts';
import { findJwk, generateEs256Jwk, jwkThumbprint, shortKeyId, toPublicJwk } from './keys.ts';

describe('findJwk', () => {
  const a = toPublicJwk(generateEs256Jwk());
  const b = toPublicJwk(generateEs256Jwk());

  it('finds a key by its short id, its full thumbprint or its kid text, and nothing else', () => {
    const named = { ...b, kid: 'key-2026' };
    const jwks = { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB' }, a, named] };
    expect(findJwk(jwks, shortKeyId(a))).toBe(a);
    expect(findJwk(jwks, jwkThumbprint(named))).toBe(named);
    expect(findJwk(jwks, utf8ToBytes('key-2026'))).toBe(named);
    expect(findJwk(jwks, shortKeyId(a).subarray(0, 7))).toBeUndefined();
    expect(findJwk(jwks, new Uint8Array([0xff, 0xfe, 0, 1, 2, 3, 4, 5]))).toBeUndefined();
    expect(findJwk({ keys: [a] }, utf8ToBytes('key-2026'))).toBeUndefined();
  });

  it('hashes a key again once it was changed (the thumbprints kept are per key and its coordinates)', () => {
    const key = { ...a };
    const jwks = { keys: [key] };
    expect(findJwk(jwks, shortKeyId(a))).toBe(key);
    key.x = b.x;
    key.y = b.y;
    expect(findJwk(jwks, shortKeyId(a))).toBeUndefined();
    expect(findJwk(jwks, shortKeyId(b))).toBe(key);
  });
});
