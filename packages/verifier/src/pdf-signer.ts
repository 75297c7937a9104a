// Whether the certificate that signed a PDF belongs to the ministry: its public key must be one of
// the published ES256 keys (the API publishes each key with its certificate chain as x5c; the same
// key signs the QR payload, the batch root and, through its certificate, the PDF).
import { X509Certificate } from 'node:crypto';
import { shortKeyId, toBase64url, type EcPublicJwk, type Jwks } from '@sceau/credential';
import { LRUCache } from 'lru-cache';

export function certificateSubject(der: Uint8Array | null): string | undefined {
  if (!der) return undefined;
  try {
    return new X509Certificate(der).subject.replaceAll('\n', ', ');
  } catch {
    return undefined;
  }
}

type SignerKey = { kid: string; subject: string | undefined } | null;
const signerKeys = new LRUCache<string, { answer: SignerKey }>({ max: 256 });

/**
 * The published key the certificate carries, or null if the certificate's key is not published.
 * Remembered per certificate and key set: every PDF of a key carries the same certificate.
 */
export function findSignerKey(certificateDer: Uint8Array, jwks: Jwks): SignerKey {
  const id = `${Buffer.from(certificateDer.buffer, certificateDer.byteOffset, certificateDer.byteLength).toString('base64')}|${jwks.keys.map((k) => `${(k as Partial<EcPublicJwk>).kid ?? ''}.${(k as Partial<EcPublicJwk>).x ?? ''}.${(k as Partial<EcPublicJwk>).y ?? ''}`).join(';')}`;
  const known = signerKeys.get(id);
  if (known) return known.answer;
  const answer = matchSignerKey(certificateDer, jwks);
  signerKeys.set(id, { answer });
  return answer;
}

function matchSignerKey(certificateDer: Uint8Array, jwks: Jwks): SignerKey {
  let jwk: { kty?: string; crv?: string; x?: string; y?: string };
  try {
    jwk = new X509Certificate(certificateDer).publicKey.export({ format: 'jwk' });
  } catch {
    return null;
  }
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) return null;
  for (const key of jwks.keys) {
    const k = key as Partial<EcPublicJwk>;
    if (k.kty === 'EC' && k.crv === 'P-256' && k.x === jwk.x && k.y === jwk.y) {
      const kid = typeof k.kid === 'string' ? k.kid : toBase64url(shortKeyId(k as EcPublicJwk));
      return { kid, subject: certificateSubject(certificateDer) };
    }
  }
  return null;
}
