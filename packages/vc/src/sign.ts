/// <reference path="./digitalbazaar.d.ts" />
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import type { DocumentLoader } from './document-loader.ts';

/**
 * Securing a credential with a Data Integrity proof, cryptosuite `ecdsa-rdfc-2019` on P-256
 * (ADR 0144): RDF Dataset Canonicalization of the credential and of the proof options, SHA-256 of
 * each, signed ECDSA P-256 with SHA-256 by the ministry's key. The signature is made by whatever
 * holds the key (a file key or a PKCS#11 token): this only needs its `sign`.
 */
export interface ProofSigner {
  /** The verification method: `did:web:…#<kid>`. */
  id: string;
  algorithm: 'P-256';
  /** ECDSA P-256 over SHA-256(data), IEEE P1363 (r ‖ s, 64 bytes). */
  sign(input: { data: Uint8Array }): Promise<Uint8Array>;
}

/** Wraps an ES256 signer (`sign(data)` → raw r ‖ s, as the ministry's key has it) for Digital Bazaar's suite. */
export function proofSigner(verificationMethod: string, sign: (data: Uint8Array) => Promise<Uint8Array>): ProofSigner {
  return {
    id: verificationMethod,
    algorithm: 'P-256',
    async sign({ data }) {
      const signature = await sign(data);
      if (!(signature instanceof Uint8Array) || signature.length !== 64) throw new Error('the P-256 signer must return the raw 64-byte r ‖ s signature');
      return signature;
    },
  };
}

/** The credential with its proof (`DataIntegrityProof`, `ecdsa-rdfc-2019`, proofPurpose assertionMethod). */
export async function secureCredential<T extends object>(
  credential: T,
  options: { signer: ProofSigner; documentLoader: DocumentLoader; date?: Date },
): Promise<T & { proof: Record<string, unknown> }> {
  const suite = new DataIntegrityProof({ signer: options.signer, cryptosuite, ...(options.date ? { date: options.date } : {}) });
  const secured = await vc.issue({ credential: structuredClone(credential), suite, documentLoader: options.documentLoader, ...(options.date ? { now: options.date } : {}) });
  return secured as T & { proof: Record<string, unknown> };
}

/**
 * An Open Badges 3.0 credential secured as `secureCredential` does, its `proof` written as a set
 * (an array of one): VC 2.0 allows either form, and the 1EdTech JSON Schema of
 * `AchievementCredential` (and the validators built on it) accepts only the array. Moving the proof
 * into an array changes nothing signed (a Data Integrity proof never covers `proof`).
 */
export async function secureOpenBadgeCredential<T extends object>(
  credential: T,
  options: { signer: ProofSigner; documentLoader: DocumentLoader; date?: Date },
): Promise<T & { proof: Record<string, unknown>[] }> {
  const secured = await secureCredential(credential, options);
  return { ...secured, proof: [secured.proof] };
}

/** The suite a verifier uses (no signer): Digital Bazaar's ecdsa-rdfc-2019. */
export function verificationSuite(): DataIntegrityProof {
  return new DataIntegrityProof({ cryptosuite });
}
