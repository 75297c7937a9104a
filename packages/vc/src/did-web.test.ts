import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import { didWebDocumentUrl, didWebFor } from './did-web.ts';
import { buildOpenBadgeCredential } from './open-badge.ts';
import { secureCredential } from './sign.ts';
import { diplomaInput, testIssuer } from './test-support.ts';
import { verifyOpenBadgeCredential } from './verify.ts';

describe('did:web of the platform', () => {
  it('names the host (port encoded) and path; resolves to /.well-known/did.json or <path>/did.json', () => {
    expect(didWebFor('https://diplomes.example.cd')).toBe('did:web:diplomes.example.cd');
    expect(didWebFor('http://localhost:3000/')).toBe('did:web:localhost%3A3000');
    expect(didWebFor('https://gouv.example/education/sceau')).toBe('did:web:gouv.example:education:sceau');
    expect(didWebDocumentUrl('did:web:diplomes.example.cd')).toBe('https://diplomes.example.cd/.well-known/did.json');
    expect(didWebDocumentUrl('did:web:gouv.example:education:sceau')).toBe('https://gouv.example/education/sceau/did.json');
    expect(didWebDocumentUrl('did:web:localhost%3A3000', { insecure: true })).toBe('http://localhost:3000/.well-known/did.json');
  });

  it('lists every key as a Multikey of the right public key; the retired one with its retirement', async () => {
    const issuer = await testIssuer([{ retiredAt: '2026-06-01T00:00:00Z' }]);
    const { didDocument } = issuer;
    expect(didDocument.assertionMethod).toEqual([`${issuer.did}#key-1`, `${issuer.did}#key-2`]);
    for (const [i, key] of issuer.keys.entries()) {
      const method = didDocument.verificationMethod[i]!;
      const jwk = await EcdsaMultikey.toJwk({ keyPair: await EcdsaMultikey.from({ ...method, '@context': 'https://w3id.org/security/multikey/v1' }) });
      const expected = createPublicKey(key.privateKey).export({ format: 'jwk' });
      expect({ x: jwk.x, y: jwk.y }).toEqual({ x: expected.x, y: expected.y });
    }
    expect(didDocument.verificationMethod[0]!.expires).toBe('2026-06-01T00:00:00.000Z');
    expect(didDocument.verificationMethod[1]!.expires).toBeUndefined();
  });

  it('a retired key still proves what it signed before its retirement, not after', async () => {
    const issuer = await testIssuer([{ retiredAt: '2026-06-01T00:00:00Z' }]);
    const loader = issuer.loader();
    const input = diplomaInput(issuer.did);
    const before = await secureCredential(buildOpenBadgeCredential(input), { signer: issuer.signer('key-1'), documentLoader: loader, date: new Date('2026-05-20T00:00:00Z') });
    const after = await secureCredential(buildOpenBadgeCredential(input), { signer: issuer.signer('key-1'), documentLoader: loader, date: new Date('2026-06-02T00:00:00Z') });
    const options = { documentLoader: loader, trust: { issuers: [issuer.did] }, now: new Date('2026-08-01T00:00:00Z') };
    const old = await verifyOpenBadgeCredential(before, options);
    expect(old.checks.proof.status).toBe('ok');
    expect(old.checks.issuer.status).toBe('ok');
    expect(old.verificationMethod).toBe(`${issuer.did}#key-1`);
    const late = await verifyOpenBadgeCredential(after, options);
    expect(late.checks.proof.status).toBe('ok');
    expect(late.checks.issuer).toMatchObject({ status: 'failed', reason: 'key-retired' });
    expect(late.verified).toBe(false);
  });
});
