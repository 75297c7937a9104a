import { createPublicKey, generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { buildDidDocument, didWebFor, type DidDocument, type IssuerKey } from './did-web.ts';
import { createDocumentLoader, type DocumentLoader } from './document-loader.ts';
import type { DiplomaCredentialInput } from './open-badge.ts';
import { proofSigner, type ProofSigner } from './sign.ts';

/** Test keys and a ministry as the platform has them (file keys; the API tests use its real keys). */
export interface TestIssuer {
  did: string;
  keys: Array<IssuerKey & { privateKey: KeyObject }>;
  didDocument: DidDocument;
  signer(kid?: string): ProofSigner;
  loader(resolve?: (url: string) => Promise<object | null>): DocumentLoader;
}

export async function testIssuer(retired: Array<{ retiredAt: string }> = []): Promise<TestIssuer> {
  const did = didWebFor('https://diplomes.example.cd');
  const make = (n: number, retiredAt: string | null) => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string; y: string };
    return { kid: `key-${n}`, publicJwk: { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x, y: jwk.y }, retiredAt, privateKey };
  };
  const keys = [...retired.map((r, i) => make(i + 1, r.retiredAt)), make(retired.length + 1, null)];
  const didDocument = await buildDidDocument(did, keys);
  return {
    did,
    keys,
    didDocument,
    signer(kid = keys.at(-1)!.kid) {
      const key = keys.find((k) => k.kid === kid)!;
      return proofSigner(`${did}#${kid}`, async (data) => new Uint8Array(nodeSign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })));
    },
    loader: (resolve) => createDocumentLoader({ didDocuments: [didDocument], ...(resolve ? { resolve } : {}) }),
  };
}

export function diplomaInput(did: string, overrides: Partial<DiplomaCredentialInput> = {}): DiplomaCredentialInput {
  return {
    id: 'https://diplomes.example.cd/verify/AAAAAAAAAAAAAAAAAAAAAA',
    issuer: { id: did, name: "Ministère de l'Éducation nationale", url: 'https://diplomes.example.cd', email: 'contact@diplomes.example.cd' },
    achievement: {
      id: 'https://diplomes.example.cd/achievements/EXETAT/2026/scientifique',
      kindName: "Diplôme d'État",
      kindCode: 'EXETAT',
      option: 'Scientifique',
      session: '2026',
      criteria: "Réussir l'Examen d'État, option Scientifique, session 2026",
      language: 'fr',
    },
    holder: { name: 'Ngalula Mbuyi Kabasele', identifier: '26123456789012' },
    percentage: 68.4,
    issuedAt: new Date('2026-07-15T10:00:00Z'),
    status: { index: 7, statusListCredential: 'https://diplomes.example.cd/credentials/status/0' },
    ...overrides,
  };
}
