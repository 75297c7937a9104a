// Retired keys (issue 16 item 2, ADR 0138, 0148): a signature a retired key made after its retirement
// is refused on every path (PDF, credential, QR); what it signed before stays authentic. A PDF's
// signing time comes from a trusted time-stamp over its signature (its own, or a document
// time-stamp), else only from the issuer's record of the very file (the API's store), dated by its
// batch's anchoring; the root and the QR are dated by the batch's anchoring on a real Anvil chain
// (its clock moved past the retirement with evm_increaseTime).
import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortKeyId, toBase64url, type CredentialDocument, type IssuerInfo } from '@sceau/credential';
import { addDocumentTimestamp, createDevelopmentTsa, createKeySigner, createLocalTimeStampAuthority, type LocalTimeStampAuthority } from '@sceau/pdf';
import { runCli } from './cli-run.ts';
import {
  createMinistryKeys,
  createPdfFactory,
  issueBatch,
  issuerFor,
  startTestChain,
  trustListFor,
  apiContext,
  type Batch,
  type MinistryKeys,
  type PdfFactory,
  type TestChain,
} from './test-support.ts';
import { signedWhen } from './retired-keys.ts';
import { formatTrustList } from './trust-list.ts';
import type { Check, CheckName, VerificationContext, VerificationResult } from './types.ts';
import { verify } from './verify.ts';

let chain: TestChain;
let retired: MinistryKeys;
let active: MinistryKeys;
let issuer: IssuerInfo;
/** Signed and anchored before the retirement. */
let before: Batch;
/** Signed with the retired key and anchored after its retirement (what a thief of the key would need). */
let after: Batch;
let pdfs: PdfFactory;
let retiredAt: Date;
let retiredKid: string;
let jwks: { keys: Record<string, unknown>[] };
let context: VerificationContext;
let tsaNow: LocalTimeStampAuthority;
let tsaLater: LocalTimeStampAuthority;
let tempDir: string;
const credentials = new Map<string, CredentialDocument>();
/** The platform's store: the PDF it issued for each diploma (what `issuedPdf` compares a signed revision with). */
const issued = new Map<string, Uint8Array>();
/** The API's context: the store answers whether it issued a signed revision (ADR 0148). */
let platform: VerificationContext;

async function rpc(method: string, params: unknown[]) {
  const response = await fetch(chain.chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { error?: unknown };
  if (body.error) throw new Error(JSON.stringify(body.error));
}

beforeAll(async () => {
  [chain, retired, active] = await Promise.all([startTestChain(), createMinistryKeys(), createMinistryKeys()]);
  tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-retired-'));
  issuer = issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address });
  before = await issueBatch(issuer, retired.es256, 2);
  await chain.registry.issueRoot(`0x${before.merkleRoot}`);
  // The key is retired an hour from now; the chain's clock then moves two hours on.
  retiredAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
  await rpc('evm_increaseTime', [7_200]);
  await rpc('evm_mine', []);
  after = await issueBatch(issuer, retired.es256, 1);
  await chain.registry.issueRoot(`0x${after.merkleRoot}`);
  for (const doc of [...before.documents, ...after.documents]) credentials.set(doc.record.diploma_id!, doc);

  retiredKid = toBase64url(shortKeyId(retired.jwks.keys[0]!));
  // The key set the platform publishes after a rotation: the retired key with retired_at, the new one active.
  jwks = {
    keys: [
      { ...retired.jwks.keys[0]!, kid: retiredKid, status: 'retired', retired_at: retiredAt.toISOString() },
      { ...active.jwks.keys[0]!, kid: toBase64url(shortKeyId(active.jwks.keys[0]!)), status: 'active' },
    ],
  };
  context = apiContext(issuer, jwks as never, chain.port, credentials);
  platform = {
    ...context,
    issuedPdf: async (id, signed) => {
      const file = issued.get(id);
      return !!file && file.length >= signed.length && Buffer.from(file.subarray(0, signed.length)).equals(signed);
    },
  };
  pdfs = await createPdfFactory(retired.pdfSigner);
  // The platform's TSA, certified by the ministry's CA (the x5c of the retired key holds it): trusted.
  const material = await createDevelopmentTsa({ ca: retired.ca });
  const signer = createKeySigner({ privateKey: createPrivateKey(material.privateKeyPem), certificateChainDer: material.certificateChainDer });
  tsaNow = createLocalTimeStampAuthority({ signer });
  tsaLater = createLocalTimeStampAuthority({ signer, now: () => new Date(retiredAt.getTime() + 3_600_000) });
}, 120_000);

afterAll(async () => {
  await chain?.stop();
  if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
});

const byName = (result: VerificationResult) => Object.fromEntries(result.checks.map((c) => [c.name, c])) as Record<CheckName, Check>;

describe('what a retired key signed before its retirement stays authentic', () => {
  it('a PDF without signature timestamp that the platform issued (its store holds the file): dated by its batch anchored before the retirement', async () => {
    const pdf = await pdfs.render(before.documents[0]!, before.qr[0]!);
    issued.set(before.documents[0]!.record.diploma_id!, pdf);
    const result = await verify({ pdf }, platform);
    expect(result.checks.filter((c) => c.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('authentic');
    expect(byName(result).pdf_signature.details).toMatchObject({ kid: retiredKid, retiredAt: retiredAt.toISOString(), signedAtSource: 'record' });
    // Renewed by the platform (DSS, document time-stamp appended): the same signed revision, still its own.
    const renewed = await addDocumentTimestamp(pdf, tsaLater);
    expect((await verify({ pdf: renewed }, platform)).verdict).toBe('authentic');
  });

  it('the same file where nobody holds a record (the independent verifier): could not check, never authentic', async () => {
    const pdf = await pdfs.render(before.documents[0]!, before.qr[0]!);
    const result = await verify({ pdf }, context);
    expect(byName(result).pdf_signature).toMatchObject({ status: 'not-checked', code: 'pdf_signing_time_unknown', details: { kid: retiredKid } });
    expect(byName(result).pdf_signature.details?.signedAt).toBeUndefined();
    expect(result.verdict).toBe('incomplete');
  });

  it('an old B-B PDF the platform later document-time-stamped before the retirement: dated by that document time-stamp', async () => {
    const pdf = await addDocumentTimestamp(await pdfs.render(before.documents[0]!, before.qr[0]!), tsaNow);
    const result = await verify({ pdf }, context);
    expect(result.verdict).toBe('authentic');
    expect(byName(result).pdf_signature).toMatchObject({ code: 'pdf_signature_valid_ltv', details: { signedAtSource: 'document-timestamp' } });
  });

  it('a PDF with a signature timestamp from before the retirement (PAdES B-T)', async () => {
    const pdf = await pdfs.render(before.documents[1]!, before.qr[1]!, { signOptions: { timestamper: tsaNow } });
    const result = await verify({ pdf }, context);
    expect(result.verdict).toBe('authentic');
    expect(byName(result).pdf_signature.details).toMatchObject({ signedAtSource: 'timestamp' });
  });

  it('the credential and the QR code of that batch', async () => {
    expect((await verify({ credential: before.documents[0]! }, context)).verdict).toBe('authentic');
    expect((await verify({ qr: before.qr[0]! }, context)).verdict).toBe('authentic');
  });
});

describe('what a retired key signed after its retirement is refused, naming the key and its retirement', () => {
  it('a PDF re-signed with the retired key, its printed name changed, time-stamped after the retirement', async () => {
    const genuine = before.documents[0]!;
    const printed = structuredClone(genuine);
    printed.record.last_name = 'Faussaire';
    const pdf = await pdfs.render(printed, before.qr[0]!, { attached: genuine, signOptions: { timestamper: tsaLater } });
    const result = await verify({ pdf }, context);
    expect(byName(result).pdf_signature).toMatchObject({
      status: 'failed',
      code: 'pdf_key_retired',
      details: { kid: retiredKid, retiredAt: retiredAt.toISOString(), signedAt: new Date(retiredAt.getTime() + 3_600_000).toISOString(), signedAtSource: 'timestamp' },
    });
    expect(result.verdict).toBe('altered');
    expect(result.diploma).toBeUndefined();
  });

  it('a forgery rendered afresh with the stolen retired key and no time-stamp, attaching a genuine credential anchored before the retirement', async () => {
    const genuine = before.documents[1]!;
    issued.set(genuine.record.diploma_id!, await pdfs.render(genuine, before.qr[1]!, { signOptions: { timestamper: tsaNow } }));
    const printed = structuredClone(genuine);
    printed.record.last_name = 'Faussaire';
    const forged = await pdfs.render(printed, before.qr[1]!, { attached: genuine });
    // The platform holds another file for that diploma: refused.
    const api = await verify({ pdf: forged }, platform);
    expect(byName(api).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_not_issued', details: { kid: retiredKid, retiredAt: retiredAt.toISOString() } });
    expect(api.verdict).toBe('altered');
    expect(api.diploma).toBeUndefined();
    // No record to ask: the batch's anchoring before the retirement dates nothing, never authentic.
    const offline = await verify({ pdf: forged }, context);
    expect(byName(offline).pdf_signature).toMatchObject({ status: 'not-checked', code: 'pdf_signing_time_unknown' });
    expect(offline.verdict).toBe('incomplete');
  });

  it('a time-stamp from a TSA nobody trusts dates nothing', async () => {
    const stranger = await createMinistryKeys('Faussaire');
    const material = await createDevelopmentTsa({ ca: stranger.ca });
    const rogue = createLocalTimeStampAuthority({
      signer: createKeySigner({ privateKey: createPrivateKey(material.privateKeyPem), certificateChainDer: material.certificateChainDer }),
      now: () => new Date(),
    });
    // Claims a time before the retirement: the claim is not believed, the platform never issued the file.
    const genuine = before.documents[1]!;
    const printed = structuredClone(genuine);
    printed.record.last_name = 'Faussaire';
    const pdf = await pdfs.render(printed, before.qr[1]!, { attached: genuine, signOptions: { timestamper: rogue } });
    const result = await verify({ pdf }, platform);
    expect(byName(result).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_not_issued' });
    expect(byName(result).pdf_signature.details?.timestampProblem).toMatch(/not trusted/);
    expect(byName(result).pdf_signature.details?.signedAt).toBeUndefined();
    // A document time-stamp of that TSA proves nothing either.
    const stamped = await verify({ pdf: await addDocumentTimestamp(pdf, rogue) }, context);
    expect(byName(stamped).pdf_signature).toMatchObject({ status: 'not-checked', code: 'pdf_signing_time_unknown' });
  });

  it('a batch signed with the retired key and anchored after its retirement: credential, QR with its credential, PDF', async () => {
    const doc = after.documents[0]!;
    const credential = await verify({ credential: doc }, context);
    expect(byName(credential).issuer_signature).toMatchObject({
      status: 'failed',
      code: 'key_retired',
      details: { signed: 'root', kid: retiredKid, retiredAt: retiredAt.toISOString(), signedAtSource: 'anchoring' },
    });
    expect(credential.verdict).toBe('altered');

    // A credential its caller vouches for (ADR 0154: sealed at issuance) is hashed no more, but its key's state is read as always.
    const attested = await verify({ diplomaId: doc.record.diploma_id! }, { ...context, attested: () => true });
    expect(byName(attested).integrity).toMatchObject({ status: 'passed', code: 'hashes_match' });
    expect(byName(attested).issuer_signature).toMatchObject({ status: 'failed', code: 'key_retired', details: { kid: retiredKid } });
    expect(attested.verdict).toBe('altered');

    const qr = await verify({ qr: after.qr[0]! }, context);
    expect(byName(qr).issuer_signature).toMatchObject({ status: 'failed', code: 'key_retired' });
    expect(qr.verdict).toBe('altered');

    const pdf = await verify({ pdf: await pdfs.render(doc, after.qr[0]!) }, context);
    expect(byName(pdf).issuer_signature).toMatchObject({ status: 'failed', code: 'key_retired' });
    expect(byName(pdf).pdf_signature).toMatchObject({ status: 'not-checked', code: 'pdf_signing_time_unknown' });
    const stored = await verify({ pdf: await pdfs.render(doc, after.qr[0]!) }, platform);
    expect(byName(stored).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_not_issued' });
    expect(pdf.verdict).toBe('altered');
  });

  it('a bare QR of the retired key with no credential to date it: could not check, never authentic', async () => {
    const { findCredential: _, ...offline } = context;
    const result = await verify({ qr: after.qr[0]! }, offline);
    expect(byName(result).issuer_signature).toMatchObject({
      status: 'not-checked',
      code: 'signing_time_unknown',
      details: { kid: retiredKid, retiredAt: retiredAt.toISOString() },
    });
    expect(result.verdict).toBe('incomplete');
  });

  it('the chain unreachable: a retired key cannot be dated, could not check', async () => {
    const down = { ...context, registry: { ...chain.port, findIssuance: async () => Promise.reject(Object.assign(new Error('down'), { kind: 'unreachable' })) } };
    const result = await verify({ credential: before.documents[0]! }, down);
    expect(byName(result).issuer_signature).toMatchObject({ status: 'not-checked', code: 'signing_time_unknown' });
    expect(result.verdict).toBe('incomplete');
  });

  it('the independent verifier, with the trust list giving retired_at: the forgery refused with the key and its retirement printed; the genuine accepted', async () => {
    const list = path.join(tempDir, 'trust-list.json');
    const pinned = trustListFor(issuer, jwks as never);
    await fs.writeFile(list, formatTrustList(pinned));
    expect(pinned.issuers[0]!.jwks.keys[0]!.retired_at).toBe(retiredAt.toISOString());

    const genuine = before.documents[0]!;
    const printed = structuredClone(genuine);
    printed.record.last_name = 'Faussaire';
    const forged = path.join(tempDir, 'forged.pdf');
    await fs.writeFile(forged, await pdfs.render(printed, before.qr[0]!, { attached: genuine, signOptions: { timestamper: tsaLater } }));
    const real = path.join(tempDir, 'real.pdf');
    await fs.writeFile(real, await pdfs.render(genuine, before.qr[0]!, { signOptions: { timestamper: tsaNow } }));

    const run = async (file: string, lang = 'en') => {
      let stdout = '';
      const code = await runCli({ argv: [file, '--trust-list', list, '--rpc', chain.chain.rpcUrl, '--lang', lang], env: {}, stdout: (t) => (stdout += t), stderr: () => {} });
      return { code, stdout };
    };
    const refused = await run(forged);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('PDF signature: FAILED');
    expect(refused.stdout).toContain('[pdf_key_retired]');
    expect(refused.stdout).toContain(
      `key ${retiredKid} · retired ${retiredAt.toISOString()} · signed ${new Date(retiredAt.getTime() + 3_600_000).toISOString()} (by its signature timestamp)`,
    );
    expect(refused.stdout).toContain('Verdict: ALTERED OR FORGED');
    const french = await run(forged, 'fr');
    expect(french.stdout).toContain(`clé ${retiredKid} · retirée le ${retiredAt.toISOString()}`);

    const accepted = await run(real);
    expect(accepted.stdout).toContain('Verdict: AUTHENTIC');
    expect(accepted.code).toBe(0);

    // Rendered afresh with the stolen key and no time-stamp: nothing the CLI trusts dates it, never authentic.
    const bare = path.join(tempDir, 'forged-bare.pdf');
    await fs.writeFile(bare, await pdfs.render(printed, before.qr[0]!, { attached: genuine }));
    const undated = await run(bare);
    expect(undated.stdout).toContain('[pdf_signing_time_unknown]');
    expect(undated.stdout).not.toContain('Verdict: AUTHENTIC');
    expect(undated.code).toBe(2);
  });
});

describe('a key declared compromised (keys:compromise): what it signed after the compromise is flagged as such', () => {
  let compromised: VerificationContext;
  beforeAll(() => {
    // keys:compromise sets retired_at back to the compromise time and publishes compromised_at.
    const keys = jwks.keys.map((k) => (k.kid === retiredKid ? { ...k, compromised_at: retiredAt.toISOString() } : k));
    compromised = { ...platform, jwks: async () => ({ keys }) as never };
  });

  it('the credential and the QR of a batch anchored after the compromise: key_compromised', async () => {
    const credential = await verify({ credential: after.documents[0]! }, compromised);
    expect(byName(credential).issuer_signature).toMatchObject({
      status: 'failed',
      code: 'key_compromised',
      details: { kid: retiredKid, compromisedAt: retiredAt.toISOString(), signedAtSource: 'anchoring' },
    });
    expect(credential.verdict).toBe('altered');
    expect(byName(await verify({ qr: after.qr[0]! }, compromised)).issuer_signature).toMatchObject({ code: 'key_compromised' });
  });

  it('a PDF time-stamped after the compromise: pdf_key_compromised; one time-stamped before stays authentic', async () => {
    const late = await verify({ pdf: await pdfs.render(before.documents[0]!, before.qr[0]!, { signOptions: { timestamper: tsaLater } }) }, compromised);
    expect(byName(late).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_key_compromised', details: { compromisedAt: retiredAt.toISOString() } });
    expect(late.verdict).toBe('altered');
    const early = await verify({ pdf: await pdfs.render(before.documents[0]!, before.qr[0]!, { signOptions: { timestamper: tsaNow } }) }, compromised);
    expect(early.verdict).toBe('authentic');
  });
});

describe('when a retired key signed: to the second, never guessed', () => {
  const key = { kid: 'k', retiredAt: new Date('2026-11-27T13:26:56.457Z') };
  const at = (iso: string) => ({ at: new Date(iso), source: 'timestamp' as const });

  it('a time within its second of the retirement is unknown, not before (a thief signing just after it would pass)', () => {
    // genTime 13:26:56 (to the second) stands for any moment up to 13:26:56.999, after 56.457.
    expect(signedWhen(key, at('2026-11-27T13:26:56.000Z'))).toBe('unknown');
    expect(signedWhen(key, at('2026-11-27T13:26:55.457Z'))).toBe('before');
    expect(signedWhen(key, at('2026-11-27T13:26:55.000Z'))).toBe('before');
    expect(signedWhen(key, at('2026-11-27T13:26:57.000Z'))).toBe('after');
    expect(signedWhen(key, null)).toBe('unknown');
  });
});
