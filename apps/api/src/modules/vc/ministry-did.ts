import { buildDidDocument, createDocumentLoader, didWebFor, proofSigner, verificationMethodId, type DidDocument, type DocumentLoader, type ProofSigner } from '@sceau/vc';
import type { MinistryKeys } from '../keys/ministry-keys.ts';

/**
 * The ministry as a `did:web` (ADR 0144): the platform's public address, its DID document built
 * from the same keys as the JWKS (every key, active and retired), the active key's proof signer
 * (through its ES256 signer: a file key or a PKCS#11 token alike) and a document loader that
 * resolves all of it locally.
 */
export class MinistryDid {
  readonly did: string;
  private document: { keys: string; value: Promise<DidDocument> } | null = null;

  constructor(
    readonly publicUrl: string,
    private readonly keys: MinistryKeys,
  ) {
    this.did = didWebFor(publicUrl);
  }

  /** The DID document; rebuilt when the key set changes (a rotation while the process runs). */
  didDocument(): Promise<DidDocument> {
    const published = this.keys.jwks().keys;
    const fingerprint = published.map((k) => `${k.kid}:${k.retired_at ?? ''}`).join(',');
    if (this.document?.keys !== fingerprint) {
      const value = buildDidDocument(
        this.did,
        published.map((k) => ({ kid: k.kid, publicJwk: { kty: 'EC', crv: 'P-256', x: k.x, y: k.y }, retiredAt: k.retired_at ?? null })),
      );
      this.document = { keys: fingerprint, value };
    }
    return this.document.value;
  }

  /** The active key's verification method. */
  get verificationMethod(): string {
    return verificationMethodId(this.did, this.keys.active.kid);
  }

  /** Signs with the active key through its signer (never reads a private key file). */
  signer(): ProofSigner {
    const active = this.keys.active;
    return proofSigner(verificationMethodId(this.did, active.kid), (data) => active.es256.sign(data));
  }

  /** Contexts shipped in @sceau/vc, this DID, and what `resolve` answers locally; never the network. */
  documentLoader(resolve?: (url: string) => Promise<object | null>): DocumentLoader {
    return createDocumentLoader({ didDocuments: async () => [await this.didDocument()], ...(resolve ? { resolve } : {}) });
  }
}
