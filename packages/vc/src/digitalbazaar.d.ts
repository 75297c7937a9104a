/**
 * Types for Digital Bazaar's JavaScript libraries (they ship none): only what this package uses.
 * Referenced (triple-slash) by the files that import them, so every workspace's typecheck sees it.
 */

declare module '@digitalbazaar/vc' {
  export function issue(options: { credential: object; suite: unknown; documentLoader: unknown; now?: string | Date }): Promise<Record<string, unknown>>;
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: unknown;
    checkStatus?: (options: { credential: Record<string, unknown> }) => Promise<{ verified: boolean; error?: unknown }>;
    now?: string | Date;
    purpose?: unknown;
  }): Promise<{ verified: boolean; error?: unknown; results?: unknown[]; statusResult?: { verified: boolean } }>;
  export class CredentialIssuancePurpose {
    constructor(options?: { controller?: object; date?: string | Date; maxTimestampDelta?: number });
  }
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> }; cryptosuite: unknown; date?: string | Date });
  }
}

declare module '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite' {
  export const cryptosuite: unknown;
}

declare module '@digitalbazaar/ecdsa-multikey' {
  interface KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    export(options: { publicKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
  }
  export function fromJwk(options: { jwk: object; id?: string; controller?: string }): Promise<KeyPair>;
  export function from(key: object): Promise<KeyPair>;
  export function toJwk(options: { keyPair: KeyPair }): Promise<Record<string, unknown>>;
}

declare module 'jsonld-signatures' {
  const jsigs: {
    verify(
      document: object,
      options: { suite: unknown; purpose: unknown; documentLoader: unknown },
    ): Promise<{
      verified: boolean;
      error?: unknown;
      results?: Array<{ verified: boolean; error?: unknown; proof?: Record<string, unknown>; verificationMethod?: Record<string, unknown> }>;
    }>;
  };
  export default jsigs;
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
  export function checkStatus(options: {
    credential: object;
    documentLoader: unknown;
    suite: unknown;
    verifyBitstringStatusListCredential?: boolean;
    verifyMatchingIssuers?: boolean;
  }): Promise<{ verified: boolean; error?: unknown; results?: Array<{ verified: boolean; status?: boolean }> }>;
}

// The Digital Credentials Consortium's stack, used by the conformance test as a second verifier.
declare module '@digitalcredentials/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown });
  }
}

declare module '@digitalcredentials/did-method-web' {
  export function didUrlToHttpsUrl(did: string): { baseUrl: string; fragment?: string; domain: string };
}

declare module '@digitalcredentials/vc' {
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: unknown;
    checkStatus?: (options: object) => Promise<unknown>;
  }): Promise<{ verified: boolean; error?: unknown; statusResult?: { verified: boolean }; results?: Array<{ verified: boolean }> }>;
}

declare module '@digitalcredentials/vc-bitstring-status-list' {
  export function checkStatus(options: object): Promise<{ verified: boolean; error?: unknown }>;
}
