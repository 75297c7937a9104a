/**
 * Real artefacts for this package's tests (not exported by the package): a development PKI whose
 * key is also the ES256 key, batches wrapped and signed with @sceau/credential, PDFs rendered and
 * signed with @sceau/pdf, roots anchored on a real Anvil with @sceau/chain.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  encodeQrPayload,
  newDiplomaId,
  qrFieldsFromDocument,
  signBatch,
  toPublicJwk,
  wrapBatch,
  type CredentialDocument,
  type EcPublicJwk,
  type Es256Signer,
  type IssuerInfo,
  type QrFields,
} from '@sceau/credential';
import { toBase45 } from '@sceau/credential/base45';
import { createNodeSigner } from '@sceau/credential/node-signer';
import { connectChain, createRegistry, deployRegistry, startLocalChain, type DiplomaRegistry, type LocalChain } from '@sceau/chain';
import { createDevelopmentPki, createDiplomaRenderer, createKeySigner, diplomeEtatTemplate, type DiplomaRenderer, type SignOptions, type Signer } from '@sceau/pdf';
import { createTestPhoto, createTestSignatureImages } from '@sceau/pdf/test-fixtures';
import { registryPort } from './chain-port.ts';
import { TRUST_LIST_FORMAT, trustListEntry, type TrustList } from './trust-list.ts';
import type { RegistryPort, VerificationContext } from './types.ts';
import { freePort } from '@sceau/process';

export interface MinistryKeys {
  es256: Es256Signer;
  pdfSigner: Signer;
  jwks: { keys: Array<EcPublicJwk & { x5c: string[]; kid?: string; retired_at?: string }> };
  /** The development CA that certified the key (to certify a test TSA with, as the platform does). */
  ca: { certificatePem: string; privateKeyPem: string };
}

/** A ministry identity as the API builds it: one P-256 key, its certificate, published with x5c. */
export async function createMinistryKeys(organization = 'Ministère (test)'): Promise<MinistryKeys> {
  const pki = await createDevelopmentPki({ organization });
  const privateKey = createPrivateKey(pki.signingPrivateKeyPem);
  const publicJwk = toPublicJwk(createPublicKey(privateKey).export({ format: 'jwk' }) as EcPublicJwk);
  return {
    es256: createNodeSigner(privateKey),
    pdfSigner: createKeySigner({ privateKey, certificateChainDer: pki.certificateChainDer }),
    jwks: { keys: [{ ...publicJwk, x5c: pki.certificateChainDer.map((der) => Buffer.from(der).toString('base64')) }] },
    ca: { certificatePem: pki.caCertificatePem, privateKeyPem: pki.caPrivateKeyPem },
  };
}

export function issuerFor(registry: { chainId: number; address: string }, id = 'minepst.gouv.cd'): IssuerInfo {
  return {
    id,
    name: "Ministère de l'Enseignement Primaire, Secondaire et Technique",
    jwks_url: `https://${id}/.well-known/jwks.json`,
    registry: { chain_id: registry.chainId, contract: registry.address.toLowerCase() },
  };
}

const people = [
  { last_name: 'Mbuyamba-Tshibangu', middle_name: 'Kalombo wa Ilunga', first_name: 'Marie-Élodie Ntumba', gender: 'F', birth_date: '2007-03-14', percentage: 67.5 },
  { last_name: 'Kabamba', middle_name: 'Ngalula', first_name: 'Jean-Pierre', gender: 'M', birth_date: '2006-11-02', percentage: 72 },
  { last_name: 'Lukusa', middle_name: '', first_name: 'Béatrice', gender: 'F', birth_date: '2007-06-30', percentage: 58.4 },
] as const;

export function testRecords(issuerId: string, count = 3) {
  return Array.from({ length: count }, (_, i) => ({
    ...people[i % people.length]!,
    diploma_id: newDiplomaId(),
    candidate_code: `3201180451${String(2345 + i).padStart(4, '0')}`,
    birth_place: 'Mbuji-Mayi',
    option: 'Biologie-Chimie',
    option_code: 'BC',
    school: 'Complexe Scolaire Mgr Kabangu',
    school_code: '3201045',
    centre: 'Centre Lycée Tuendelee',
    centre_code: '320118',
    educ_province: 'Kasaï-Oriental 2',
    educ_province_code: 'KOR2',
    session: 'Session 2025',
    session_year: 2025,
    issue_date: '2025-08-20',
    issuer: issuerId,
  }));
}

export interface Batch {
  merkleRoot: string;
  documents: CredentialDocument[];
  qr: string[];
}

/**
 * The signed QR text of these fields. Works around a bug of @sceau/credential (reported): cborg
 * may return a Buffer that is a view into a shared 64 KB pool, `toBase45` copies it with
 * `bytes.slice()`, which for a Buffer is a view again, and @digitalbazaar/base45 reads `.buffer`
 * from offset 0: `encodeQrPayload(...).text` then encodes the wrong bytes (most records, not the
 * long-names vector). The bytes themselves are right; a plain copy encodes them correctly.
 */
export async function signQr(fields: QrFields, es256: Es256Signer): Promise<string> {
  const { bytes } = await encodeQrPayload(fields, es256);
  return `SC1:${toBase45(new Uint8Array(bytes))}`;
}

export async function issueBatch(issuer: IssuerInfo, es256: Es256Signer, count = 3): Promise<Batch> {
  const batch = await signBatch(wrapBatch(testRecords(issuer.id, count), { issuer }), es256);
  const qr = await Promise.all(batch.documents.map((doc) => signQr(qrFieldsFromDocument(doc), es256)));
  return { ...batch, qr };
}

export interface PdfFactory {
  /** The diploma of `doc` (its QR codes and printed fields), with `attached` embedded, signed by `signer`. */
  render(doc: CredentialDocument, qr: string, options?: { attached?: CredentialDocument; signer?: Signer; signOptions?: SignOptions }): Promise<Uint8Array>;
  /** The same document, not signed (the renderer's output). */
  unsigned(doc: CredentialDocument, qr: string): Promise<Uint8Array>;
}

export async function createPdfFactory(defaultSigner: Signer): Promise<PdfFactory> {
  const renderer: DiplomaRenderer = await createDiplomaRenderer({ template: diplomeEtatTemplate, signatureImages: await createTestSignatureImages() });
  const photo = await createTestPhoto();
  const parts = (doc: CredentialDocument, qr: string, attached?: CredentialDocument) => {
    const r = doc.record;
    const fields = {
      name: [r.last_name, r.middle_name, r.first_name].filter(Boolean).join(' '),
      birthPlace: r.birth_place ?? '',
      birthDate: r.birth_date ?? '',
      option: r.option ?? '',
      school: r.school ?? '',
      centre: r.centre ?? '',
      province: r.educ_province ?? '',
      session: r.session ?? '',
      percentage: String(r.percentage).replace('.', ','),
      issuePlace: 'Kinshasa',
      issueDate: r.issue_date ?? '',
      diplomaNumber: r.diploma_id!,
      candidateCode: r.candidate_code ?? '',
    };
    const credential = new TextEncoder().encode(JSON.stringify(attached ?? doc));
    return { fields, qr: { verifyUrl: `https://${doc.issuer.id}/verify/${r.diploma_id}`, offlinePayload: qr }, credential };
  };
  return {
    unsigned(doc, qr) {
      const p = parts(doc, qr);
      return renderer.render(p.fields, photo, p.qr, p.credential);
    },
    render(doc, qr, options = {}) {
      const p = parts(doc, qr, options.attached);
      return renderer.renderSigned(p.fields, photo, p.qr, p.credential, options.signer ?? defaultSigner, options.signOptions);
    },
  };
}

/**
 * A trust list pinning this issuer and keys, built as the `trust-list` command and the development
 * platform build it: from the issuer document a platform publishes and its key set.
 */
export function trustListFor(issuer: IssuerInfo, jwks: MinistryKeys['jwks'], options: { development?: boolean; rpcUrl?: string } = {}): TrustList {
  const document = {
    id: issuer.id,
    name: issuer.name,
    jwks_uri: issuer.jwks_url,
    registry: { chain_id: issuer.registry.chain_id, address: issuer.registry.contract, rpc_url: options.rpcUrl ?? null },
  };
  return { format: TRUST_LIST_FORMAT, issuers: [trustListEntry(document, jwks, { development: options.development ?? false })] };
}

export interface TestChain {
  chain: LocalChain;
  /** Deploys another copy of the registry on the same chain (a look-alike's), and returns its client. */
  deployCopy(): Promise<DiplomaRegistry>;
  dataDir: string;
  /** The ministry's registry client (can issue and revoke). */
  registry: DiplomaRegistry;
  /** A read-only port, as a verifier has. */
  port: RegistryPort;
  stop(): Promise<void>;
}

export async function startTestChain(): Promise<TestChain> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-verifier-'));
  const chain = await startLocalChain({ dataDir, port: await freePort() });
  try {
    const ministry = connectChain({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, privateKey: chain.ministryKey.privateKey, pollingIntervalMs: 50 });
    const deployment = await deployRegistry(ministry);
    const registry = createRegistry(ministry, deployment.address);
    const readOnly = createRegistry(connectChain({ rpcUrl: chain.rpcUrl, chainId: chain.chainId }), deployment.address);
    return {
      chain,
      dataDir,
      registry,
      port: registryPort(readOnly),
      async deployCopy() {
        return createRegistry(ministry, (await deployRegistry(ministry)).address);
      },
      async stop() {
        await chain.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await chain.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The API's context: trust configured, credentials from a map standing for its database. */
export function apiContext(
  issuer: IssuerInfo,
  jwks: MinistryKeys['jwks'],
  port: RegistryPort,
  credentials: Map<string, CredentialDocument>,
  overrides: Partial<VerificationContext> = {},
): VerificationContext {
  return {
    jwks: async () => jwks,
    registry: port,
    issuer: { id: issuer.id, name: issuer.name, jwksUrl: issuer.jwks_url, registry: { chainId: issuer.registry.chain_id, address: issuer.registry.contract } },
    findCredential: async (id) => credentials.get(id) ?? null,
    ...overrides,
  };
}
