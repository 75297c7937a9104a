import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NON_PUBLIC_FIELDS, publicCredential, qrFieldsFromDocument, type CredentialDocument, type IssuerInfo } from '@sceau/credential';
import { freePort } from '@sceau/process';
import { connectRegistryPort } from './chain-port.ts';
import { runCli } from './cli-run.ts';
import {
  apiContext,
  createMinistryKeys,
  createPdfFactory,
  issueBatch,
  issuerFor,
  signQr,
  startTestChain,
  trustListFor,
  type Batch,
  type MinistryKeys,
  type PdfFactory,
  type TestChain,
} from './test-support.ts';
import { formatTrustList, type TrustList } from './trust-list.ts';
import type { Check, CheckName, VerificationContext, VerificationResult } from './types.ts';
import { verify } from './verify.ts';

let chain: TestChain;
let ministry: MinistryKeys;
let issuer: IssuerInfo;
let batch: Batch;
let pdfs: PdfFactory;
let pdf0: Uint8Array;
const credentials = new Map<string, CredentialDocument>();
let context: VerificationContext;
const tempFiles: string[] = [];

beforeAll(async () => {
  [chain, ministry] = await Promise.all([startTestChain(), createMinistryKeys()]);
  issuer = issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address });
  batch = await issueBatch(issuer, ministry.es256);
  await chain.registry.issueRoot(`0x${batch.merkleRoot}`);
  for (const doc of batch.documents) credentials.set(doc.record.diploma_id!, doc);
  context = apiContext(issuer, ministry.jwks, chain.port, credentials);
  pdfs = await createPdfFactory(ministry.pdfSigner);
  pdf0 = await pdfs.render(batch.documents[0]!, batch.qr[0]!);
});

afterAll(async () => {
  await chain?.stop();
  await Promise.all(tempFiles.map((f) => fs.rm(f, { recursive: true, force: true })));
});

const byName = (result: VerificationResult) => Object.fromEntries(result.checks.map((c) => [c.name, c])) as Record<CheckName, Check>;
const statusOf = (result: VerificationResult) => Object.fromEntries(result.checks.map((c) => [c.name, `${c.status}:${c.code}`]));
const copy = <T>(value: T): T => structuredClone(value);

function expectAuthentic(result: VerificationResult) {
  expect(result.checks.filter((c) => c.status !== 'passed')).toEqual([]);
  expect(result.verdict).toBe('authentic');
}

describe('authentic diplomas, by every path', () => {
  it('by PDF: embedded credential, PAdES signature, and both QR codes read back and matched', async () => {
    const result = await verify({ pdf: pdf0 }, context);
    expectAuthentic(result);
    expect(result.source).toBe('pdf');
    const checks = byName(result);
    expect(Object.keys(checks).sort()).toEqual(['anchored', 'integrity', 'issuer_identity', 'issuer_signature', 'not_revoked', 'pdf_signature']);
    expect(checks.integrity.details).toMatchObject({ qr: 'matches', targetHash: batch.documents[0]!.signature.targetHash });
    expect(checks.issuer_signature.details).toMatchObject({ signed: ['root', 'qr'] });
    expect(checks.pdf_signature.details).toMatchObject({ kid: ministry.jwks.keys[0]!.kid });
    expect(checks.anchored.details).toMatchObject({
      chainId: chain.chain.chainId,
      contract: chain.registry.address.toLowerCase(),
      root: `0x${batch.merkleRoot}`,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      blockNumber: expect.any(Number),
      timestamp: expect.any(Number),
    });
    expect(result.diploma).toMatchObject({ id: batch.documents[0]!.record.diploma_id, last_name: 'Mbuyamba-Tshibangu', percentage: 67.5, school: 'Complexe Scolaire Mgr Kabangu' });
    expect(result.diploma).not.toHaveProperty('candidate_code');
    expect(result.hashes).toEqual({ targetHash: batch.documents[0]!.signature.targetHash, merkleRoot: batch.merkleRoot });
  });

  it('by credential JSON, as an object and as text', async () => {
    expectAuthentic(await verify({ credential: batch.documents[1] }, context));
    const result = await verify({ credential: JSON.stringify(batch.documents[1]) }, context);
    expectAuthentic(result);
    expect(result.source).toBe('credential');
    expect(result.checks.map((c) => c.name)).not.toContain('pdf_signature');
  });

  it('by the signed QR payload, with the full credential found by its id', async () => {
    const result = await verify({ qr: batch.qr[2]! }, context);
    expectAuthentic(result);
    expect(result.source).toBe('qr');
    expect(byName(result).issuer_signature.details).toMatchObject({ signed: ['root', 'qr'] });
  });

  it("by the QR payload alone (no credential to give the proof): signature and the diploma's own revocation checked, never its batch's, incomplete", async () => {
    const { findCredential: _, ...offline } = context;
    const result = await verify({ qr: batch.qr[2]! }, offline);
    expect(statusOf(result)).toEqual({
      integrity: 'not-checked:credential_unavailable',
      issuer_signature: 'passed:signature_valid',
      issuer_identity: 'passed:issuer_key',
      anchored: 'not-checked:proof_unavailable',
      not_revoked: 'not-checked:batch_unchecked',
    });
    expect(result.verdict).toBe('incomplete');
    expect(result.diploma).toMatchObject({ id: batch.documents[2]!.record.diploma_id, first_name: 'Béatrice', school_code: '3201045' });
  });

  it('by id (a /verify/{id} link) and by the link QR', async () => {
    const id = batch.documents[0]!.record.diploma_id!;
    const byId = await verify({ diplomaId: id }, context);
    expectAuthentic(byId);
    expect(byId.source).toBe('link');
    const byLinkQr = await verify({ qr: `https://minepst.gouv.cd/verify/${id}` }, context);
    expectAuthentic(byLinkQr);
    expect(byLinkQr.source).toBe('qr');
  });
});

describe('tampering is caught and named by its check', () => {
  it('one changed byte in the PDF: pdf_signature failed, altered', async () => {
    // A copy (the signer returns a Buffer, whose slice() would be a view of pdf0).
    const tampered = Uint8Array.from(pdf0);
    const at = Buffer.from(tampered).indexOf('/Producer (Sceau)', 0, 'latin1') + '/Producer (Scea'.length;
    expect(at).toBeGreaterThan(100);
    tampered[at] = 'v'.charCodeAt(0);
    const result = await verify({ pdf: tampered }, context);
    expect(byName(result).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_modified' });
    expect(result.verdict).toBe('altered');
    expect(result.diploma).toBeUndefined();
  });

  it('bytes appended after signing (an incremental update): pdf_signature failed', async () => {
    const appended = Buffer.concat([pdf0, Buffer.from('\n% appended\n')]);
    const result = await verify({ pdf: new Uint8Array(appended) }, context);
    expect(byName(result).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_changed_after_signing' });
    expect(result.verdict).toBe('altered');
  });

  it('one changed field in the credential: integrity failed, altered', async () => {
    const doc = copy(batch.documents[0]!);
    doc.record.percentage = 97.5;
    const result = await verify({ credential: doc }, context);
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'target_hash_mismatch' });
    expect(result.verdict).toBe('altered');
    expect(result.diploma).toBeUndefined();

    const proof = copy(batch.documents[0]!);
    proof.signature.proof[0] = proof.signature.proof[0]!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(byName(await verify({ credential: proof }, context)).integrity).toMatchObject({ status: 'failed', code: 'merkle_proof_mismatch' });
  });

  it('a QR re-signed with another key: issuer_signature failed (unknown key), altered', async () => {
    const stranger = await createMinistryKeys('Faussaire');
    const forged = await signQr({ ...qrFieldsFromDocument(batch.documents[0]!), percentage: 99 }, stranger.es256);
    const result = await verify({ qr: forged }, context);
    expect(byName(result).issuer_signature).toMatchObject({ status: 'failed', code: 'unknown_key' });
    expect(result.verdict).toBe('altered');
  });

  it('a QR with a flipped character: issuer_signature failed, altered', async () => {
    const qr = batch.qr[0]!;
    const at = qr.length - 7;
    const flipped = qr.slice(0, at) + (qr[at] === '0' ? '1' : '0') + qr.slice(at + 1);
    const result = await verify({ qr: flipped }, context);
    expect(byName(result).issuer_signature.status).toBe('failed');
    expect(['bad_signature', 'qr_malformed']).toContain(byName(result).issuer_signature.code);
    expect(result.verdict).toBe('altered');
  });

  it("another person's credential in a PDF signed by the ministry: the QR does not match, altered", async () => {
    const mixed = await pdfs.render(batch.documents[0]!, batch.qr[0]!, { attached: batch.documents[1]! });
    const result = await verify({ pdf: mixed }, context);
    expect(byName(result).pdf_signature.status).toBe('passed');
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'qr_credential_mismatch' });
    expect(byName(result).integrity.details?.fields).toEqual(expect.arrayContaining(['link.diploma_id', 'qr.target_hash', 'qr.last_name']));
    expect(result.verdict).toBe('altered');
  });

  it("another person's credential in a PDF re-signed by someone else: PDF signer unknown, altered", async () => {
    const stranger = await createMinistryKeys('Faussaire');
    const forged = await pdfs.render(batch.documents[0]!, batch.qr[0]!, { attached: batch.documents[1]!, signer: stranger.pdfSigner });
    const result = await verify({ pdf: forged }, context);
    expect(byName(result).pdf_signature).toMatchObject({ status: 'failed', code: 'pdf_unknown_signer' });
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'qr_credential_mismatch' });
    expect(result.verdict).toBe('altered');
  });

  it('a credential from another issuer or registry: issuer_identity failed, altered', async () => {
    const other = await issueBatch(issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address }, 'autre.gouv.cd'), ministry.es256, 1);
    await chain.registry.issueRoot(`0x${other.merkleRoot}`);
    const result = await verify({ credential: other.documents[0] }, context);
    expect(byName(result).issuer_identity).toMatchObject({ status: 'failed', code: 'issuer_mismatch' });
    expect(result.verdict).toBe('altered');

    const elsewhere = await issueBatch({ ...issuer, registry: { chain_id: issuer.registry.chain_id, contract: '0x' + '11'.repeat(20) } }, ministry.es256, 1);
    const moved = await verify({ credential: elsewhere.documents[0] }, context);
    expect(byName(moved).issuer_identity).toMatchObject({ status: 'failed', code: 'registry_mismatch' });
    expect(moved.verdict).toBe('altered');
  });
});

describe('chain answers', () => {
  it('a revoked diploma hash, and a revoked batch root: revoked', async () => {
    const revocable = await issueBatch(issuer, ministry.es256, 2);
    await chain.registry.issueRoot(`0x${revocable.merkleRoot}`);
    await chain.registry.revoke(`0x${revocable.documents[0]!.signature.targetHash}`, 'fraude constatée');
    const one = await verify({ credential: revocable.documents[0] }, context);
    expect(byName(one).not_revoked).toMatchObject({ status: 'failed', code: 'diploma_revoked', details: { reason: 'fraude constatée' } });
    expect(byName(one).anchored.status).toBe('passed');
    expect(one.verdict).toBe('revoked');
    expect(one.diploma?.id).toBe(revocable.documents[0]!.record.diploma_id);
    expectAuthentic(await verify({ credential: revocable.documents[1] }, context));
    // The QR alone carries the targetHash: its revocation shows without the credential.
    const { findCredential: _, ...offline } = context;
    const qrOnly = await verify({ qr: revocable.qr[0]! }, offline);
    expect(qrOnly.verdict).toBe('revoked');

    await chain.registry.revoke(`0x${revocable.merkleRoot}`, 'lot annulé');
    const whole = await verify({ credential: revocable.documents[1] }, context);
    expect(byName(whole).not_revoked).toMatchObject({ status: 'failed', code: 'batch_revoked' });
    expect(whole.verdict).toBe('revoked');
  });

  it('a root never anchored: unknown, or unpublished when the caller knows the diploma', async () => {
    const unsigned = await issueBatch(issuer, ministry.es256, 1);
    const result = await verify({ credential: unsigned.documents[0] }, context);
    expect(byName(result).anchored).toMatchObject({ status: 'failed', code: 'root_not_issued' });
    expect(result.verdict).toBe('unknown');

    const id = unsigned.documents[0]!.record.diploma_id!;
    const known = { ...context, knownUnpublished: (d: string) => d === id, findCredential: async (d: string) => (d === id ? unsigned.documents[0]! : null) };
    const pending = await verify({ diplomaId: id }, known);
    expect(byName(pending).anchored).toMatchObject({ status: 'failed', code: 'not_yet_published' });
    expect(pending.verdict).toBe('unpublished');
  });

  it('an RPC endpoint that refuses: anchored and not_revoked not-checked, incomplete, never authentic', async () => {
    const refused = connectRegistryPort({ chainId: chain.chain.chainId, address: chain.registry.address }, { rpcUrl: `http://127.0.0.1:${await freePort()}` });
    const down = { ...context, registry: refused };
    for (const input of [{ pdf: pdf0 }, { credential: batch.documents[0] }, { qr: batch.qr[0]! }]) {
      const result = await verify(input, down);
      expect(byName(result).anchored).toMatchObject({ status: 'not-checked', code: 'chain_unreachable' });
      expect(byName(result).not_revoked).toMatchObject({ status: 'not-checked', code: 'chain_unreachable' });
      expect(result.verdict).toBe('incomplete');
    }
  });

  it('keys that cannot be fetched: signatures not-checked, incomplete', async () => {
    const noKeys = { ...context, jwks: async () => Promise.reject(new Error('offline')) };
    const result = await verify({ pdf: pdf0 }, noKeys);
    expect(byName(result).issuer_signature).toMatchObject({ status: 'not-checked', code: 'jwks_unavailable' });
    expect(byName(result).pdf_signature).toMatchObject({ status: 'not-checked', code: 'jwks_unavailable' });
    expect(result.verdict).toBe('incomplete');
  });
});

describe('inputs that are not diplomas', () => {
  it('an unknown id, text that is not ours, JSON that is not a credential: unknown', async () => {
    const unknownId = await verify({ diplomaId: 'AAAAAAAAAAAAAAAAAAAAAA' }, context);
    expect(byName(unknownId).integrity).toMatchObject({ status: 'not-checked', code: 'diploma_not_found' });
    expect(unknownId.verdict).toBe('unknown');
    for (const input of [{ qr: 'hello' }, { credential: { hello: 'world' } }, { diplomaId: '../etc/passwd' }]) {
      const result = await verify(input, context);
      expect(byName(result).integrity.code).toBe('not_a_diploma');
      expect(result.verdict).toBe('unknown');
    }
  });

  it('a credential-looking JSON that is damaged: altered', async () => {
    const { salts: _, ...broken } = copy(batch.documents[0]!);
    const result = await verify({ credential: broken }, context);
    expect(byName(result).integrity).toMatchObject({ status: 'failed', code: 'malformed_credential' });
    expect(result.verdict).toBe('altered');
  });
});

describe('independent verifier (CLI)', () => {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const run = async (args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, CHAIN_RPC_URL: '' }, timeout: 30_000 });
      return { code: 0, stdout };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  };

  // Four processes started with tsx: on a loaded machine each takes seconds of wall time to start.
  it('verifies a generated PDF with public information only (exit 0), then reports tampering (exit 1)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-verifier-cli-'));
    tempFiles.push(dir);
    const pdfFile = path.join(dir, 'diplome.pdf');
    const jwksFile = path.join(dir, 'jwks.json');
    await fs.writeFile(pdfFile, pdf0);
    await fs.writeFile(jwksFile, JSON.stringify(ministry.jwks));
    const rpc = chain.chain.rpcUrl;

    const ok = await run([pdfFile, '--rpc', rpc, '--jwks', jwksFile]);
    expect(ok.stdout).toContain('Verdict: AUTHENTIC');
    expect(ok.stdout).toContain(`contract ${chain.registry.address.toLowerCase()}`);
    expect(ok.code).toBe(0);

    const fr = await run([pdfFile, '--rpc', rpc, '--jwks', jwksFile, '--lang', 'fr', '--json']);
    expect(JSON.parse(fr.stdout).verdict).toBe('authentic');

    const tampered = Buffer.from(pdf0);
    const at = tampered.indexOf('/Producer (Sceau)', 0, 'latin1') + '/Producer (Scea'.length;
    tampered[at] = 'v'.charCodeAt(0);
    await fs.writeFile(pdfFile, tampered);
    const bad = await run([pdfFile, '--rpc', rpc, '--jwks', jwksFile, '--lang', 'fr']);
    expect(bad.stdout).toContain('Le PDF a été modifié après sa signature.');
    expect(bad.stdout).toContain('MODIFIÉ OU CONTREFAIT');
    expect(bad.code).toBe(1);

    const missing = await run([path.join(dir, 'missing.json'), '--jwks', jwksFile]);
    expect(missing.code).toBe(2); // usage: no such file
  }, 120_000);

  // In-process runs, with the platform's public endpoints served by a stand-in for `fetch`.
  const serve = (routes: Record<string, unknown>) =>
    (async (url: string | URL | Request) => {
      const body = routes[String(url)];
      return body === undefined ? new Response('not found', { status: 404 }) : new Response(JSON.stringify(body), { status: 200 });
    }) as typeof fetch;
  // DATA_DIR: an empty folder unless a test gives one, so that a platform running in this checkout
  // (its data/trust-list.json) never changes what the tests see.
  let noData: string;
  const runIn = async (argv: string[], fetchImpl: typeof fetch, env: NodeJS.ProcessEnv = {}) => {
    noData ??= await tempDir();
    let stdout = '';
    const code = await runCli({ argv, env: { DATA_DIR: noData, ...env }, stdout: (t) => (stdout += t), stderr: (t) => (stdout += t), fetch: fetchImpl });
    return { code, stdout };
  };
  const tempDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-verifier-cli-'));
    tempFiles.push(dir);
    return dir;
  };
  const writeFile = async (dir: string, name: string, content: string | Uint8Array) => {
    const file = path.join(dir, name);
    await fs.writeFile(file, content);
    return file;
  };
  const writeList = (dir: string, list: TrustList, name = 'trust-list.json') => writeFile(dir, name, formatTrustList(list));
  const nothingReachable = (async () => {
    throw new TypeError('fetch failed');
  }) as typeof fetch;

  it('a development diploma (keys on localhost, not on the issuer domain): unconfirmed issuer unless its keys are given', async () => {
    const base = 'http://localhost:3999';
    const devIssuer = { ...issuer, jwks_url: `${base}/.well-known/jwks.json` };
    const dev = await issueBatch(devIssuer, ministry.es256, 1);
    await chain.registry.issueRoot(`0x${dev.merkleRoot}`);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-verifier-cli-'));
    tempFiles.push(dir);
    const file = path.join(dir, 'credential.json');
    await fs.writeFile(file, JSON.stringify(dev.documents[0]));
    const platform = serve({
      [`${base}/.well-known/jwks.json`]: ministry.jwks,
      // The RPC address comes from the issuer document when neither --rpc nor CHAIN_RPC_URL is set.
      [`${base}/.well-known/sceau-issuer.json`]: { id: issuer.id, registry: { chain_id: chain.chain.chainId, address: chain.registry.address, rpc_url: chain.chain.rpcUrl } },
    });

    // --issuer names one no trust list holds: the credential's declared issuer, unconfirmed without its keys.
    const empty = await writeList(dir, { format: 'sceau-trust-list/1', issuers: [] }, 'empty.json');
    const declared = await runIn([file, '--json', '--trust-list', empty, '--issuer', issuer.id], platform);
    expect(statusOf(JSON.parse(declared.stdout))).toMatchObject({ issuer_identity: 'not-checked:issuer_unconfirmed', anchored: 'passed:root_issued' });
    expect(declared.code).toBe(2);

    const pinned = await runIn([file, '--jwks', `${base}/.well-known/jwks.json`], platform);
    expect(pinned.stdout).toContain('Verdict: AUTHENTIC');
    expect(pinned.code).toBe(0);

    const offline = await runIn([file, '--jwks', `${base}/.well-known/jwks.json`, '--json'], serve({ [`${base}/.well-known/jwks.json`]: ministry.jwks }));
    expect(statusOf(JSON.parse(offline.stdout))).toMatchObject({ anchored: 'not-checked:chain_unreachable', not_revoked: 'not-checked:chain_unreachable' });
    expect(offline.code).toBe(2);
  });

  it('a bare QR payload: the credential is fetched from the platform public API (its public one, ADR 0134)', async () => {
    const doc = batch.documents[1]!;
    const platformUrl = 'https://minepst.gouv.cd';
    const platform = serve({
      [`${platformUrl}/.well-known/jwks.json`]: ministry.jwks,
      [`${platformUrl}/api/verify/${doc.record.diploma_id}`]: { data: { credential: publicCredential(doc), verdict: 'authentic' } },
    });
    const list = await writeList(await tempDir(), trustListFor(issuer, ministry.jwks));
    const full = await runIn([batch.qr[1]!, '--platform', platformUrl, '--rpc', chain.chain.rpcUrl, '--trust-list', list], platform);
    expect(full.stdout).toContain('Verdict: AUTHENTIC');
    expect(full.code).toBe(0);

    const link = await runIn([`${platformUrl}/verify/${doc.record.diploma_id}`, '--rpc', chain.chain.rpcUrl, '--json', '--trust-list', list], platform);
    expect(JSON.parse(link.stdout).verdict).toBe('authentic');
    expect(JSON.parse(link.stdout).diploma.hidden_fields).toEqual([...NON_PUBLIC_FIELDS]);

    // Platform API down: the QR's signature is checked, and with --registry the diploma's own
    // revocation too; its batch's is not known from the QR alone, so never "passed" (ADR 0137).
    const registry = `${chain.chain.chainId}:${chain.registry.address}`;
    const keysOnly = serve({ [`${platformUrl}/.well-known/jwks.json`]: ministry.jwks });
    const unreachable = await runIn([batch.qr[1]!, '--platform', platformUrl, '--rpc', chain.chain.rpcUrl, '--registry', registry, '--json', '--trust-list', list], keysOnly);
    const result = JSON.parse(unreachable.stdout) as VerificationResult;
    expect(statusOf(result)).toMatchObject({ issuer_signature: 'passed:signature_valid', anchored: 'not-checked:proof_unavailable', not_revoked: 'not-checked:batch_unchecked' });
    expect(result.trustedIssuer).toEqual({ id: issuer.id, name: issuer.name });
    expect(unreachable.code).toBe(2);

    // The pinned registry alone gives the QR's revocation (no --registry needed).
    const pinnedRegistry = await runIn([batch.qr[1]!, '--platform', platformUrl, '--rpc', chain.chain.rpcUrl, '--json', '--trust-list', list], keysOnly);
    expect(statusOf(JSON.parse(pinnedRegistry.stdout))).toMatchObject({ issuer_identity: 'passed:issuer_key', not_revoked: 'not-checked:batch_unchecked' });
  });

  describe('issuer pinning (ADR 0133)', () => {
    // The development platform writes DATA_DIR/trust-list.json at its start: with no option, the CLI pins it.
    let dataDir: string;
    const lookAlikes: Record<string, { file: string; qr: string }> = {};
    const ministryName = () => issuer.name;

    beforeAll(async () => {
      dataDir = await tempDir();
      await writeList(dataDir, trustListFor(issuer, ministry.jwks, { development: true, rpcUrl: chain.chain.rpcUrl }));
      // Another key, another copy of the registry (anchored there), the ministry's name: the same id, or a domain of its own.
      const forger = await createMinistryKeys(ministryName());
      const copy = await chain.deployCopy();
      const elsewhere = { chainId: chain.chain.chainId, address: copy.address };
      const variants = {
        sameId: issuerFor(elsewhere),
        ownDomain: issuerFor(elsewhere, 'minepst-gouv.cd'),
        sameRegistry: issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address }),
      };
      const dir = await tempDir();
      for (const [name, lookAlike] of Object.entries(variants)) {
        const forged = await issueBatch(lookAlike, forger.es256, 1);
        if (name !== 'sameRegistry') await copy.issueRoot(`0x${forged.merkleRoot}`);
        lookAlikes[name] = { file: await writeFile(dir, `${name}.json`, JSON.stringify(forged.documents[0])), qr: forged.qr[0]! };
      }
    });

    it('with no option, the real issuer is accepted and named', async () => {
      const dir = await tempDir();
      const credential = await writeFile(dir, 'credential.json', JSON.stringify(batch.documents[0]));
      const pdf = await writeFile(dir, 'diplome.pdf', pdf0);
      for (const file of [credential, pdf]) {
        const text = await runIn([file], nothingReachable, { DATA_DIR: dataDir });
        expect(text.stdout).toContain(`Issuer checked: ${issuer.name} (${issuer.id}) · registry ${chain.chain.chainId}:${chain.registry.address.toLowerCase()} · development keys`);
        expect(text.stdout).toContain('Verdict: AUTHENTIC');
        expect(text.code).toBe(0);
      }
      const json = await runIn([credential, '--json'], nothingReachable, { DATA_DIR: dataDir });
      const result = JSON.parse(json.stdout) as VerificationResult & { trust: { issuers: unknown[] } };
      expect(result.trustedIssuer).toEqual({ id: issuer.id, name: issuer.name, development: true });
      expect(result.trust.issuers).toEqual([{ id: issuer.id, name: issuer.name, development: true }]);
      expect(byName(result).issuer_identity).toMatchObject({ status: 'passed', code: 'issuer_matches' });
    });

    it('with no option, a look-alike issuer (other key, other registry, same name) is refused, naming the issuer expected and the one found', async () => {
      const expected = `Issuer expected: ${issuer.name} (${issuer.id}) · registry ${chain.chain.chainId}:${chain.registry.address.toLowerCase()} · development keys`;

      const sameId = await runIn([lookAlikes.sameId!.file], nothingReachable, { DATA_DIR: dataDir });
      expect(sameId.stdout).toContain(expected);
      expect(sameId.stdout).toMatch(
        new RegExp(
          `Issuer found: ${escapeRegExp(issuer.name)} \\(${escapeRegExp(issuer.id)}\\) · registry ${chain.chain.chainId}:0x(?!${chain.registry.address.slice(2).toLowerCase()})`,
        ),
      );
      expect(sameId.stdout).toContain('Issuer identity: FAILED');
      expect(sameId.stdout).toContain('Verdict: ALTERED OR FORGED');
      expect(sameId.code).toBe(1);

      const ownDomain = await runIn([lookAlikes.ownDomain!.file, '--json'], nothingReachable, { DATA_DIR: dataDir });
      const refused = JSON.parse(ownDomain.stdout) as VerificationResult;
      expect(byName(refused).issuer_identity).toMatchObject({ status: 'failed', code: 'issuer_mismatch', details: { issuer: 'minepst-gouv.cd', name: issuer.name } });
      expect(byName(refused).issuer_identity.details?.expected).toEqual([expect.objectContaining({ id: issuer.id, name: issuer.name })]);
      expect(refused.verdict).toBe('altered');
      expect(refused.diploma).toBeUndefined();
      expect(ownDomain.code).toBe(1);

      // Claiming the ministry's own registry does not help: the key is not pinned.
      const sameRegistry = await runIn([lookAlikes.sameRegistry!.file, '--json'], nothingReachable, { DATA_DIR: dataDir });
      expect(statusOf(JSON.parse(sameRegistry.stdout))).toMatchObject({ issuer_signature: 'failed:unknown_key' });
      expect(sameRegistry.code).toBe(1);

      // Its QR code alone, even with the platform giving its credential: signed by a key the trust list does not hold.
      const qr = await runIn([lookAlikes.sameId!.qr], nothingReachable, { DATA_DIR: dataDir });
      expect(qr.stdout).toContain(expected);
      expect(qr.stdout).toContain('Signed with a key the ministry does not publish.');
      expect(qr.code).toBe(1);
    });

    it('a check it could not make says "could not check", never "passed", and the verdict is not authentic', async () => {
      const dir = await tempDir();
      const credential = await writeFile(dir, 'credential.json', JSON.stringify(batch.documents[0]));

      // The chain unreachable (no RPC address in the list, none given).
      const noRpc = await writeList(dir, trustListFor(issuer, ministry.jwks));
      const chainDown = await runIn([credential, '--trust-list', noRpc], nothingReachable);
      expect(chainDown.stdout).toContain('Recorded on the blockchain: could not check');
      expect(chainDown.stdout).toContain('Not revoked: could not check');
      expect(chainDown.stdout).not.toMatch(/(blockchain|Not revoked): passed/);
      expect(chainDown.stdout).toContain(`Issuer checked: ${issuer.name} (${issuer.id})`);
      expect(chainDown.stdout).toContain('Verdict: COULD NOT BE FULLY CHECKED');
      expect(chainDown.code).toBe(2);

      // An issuer chosen with --issuer, none of its keys reachable: its identity is not "passed".
      const empty = await writeList(dir, { format: 'sceau-trust-list/1', issuers: [] }, 'empty.json');
      const keysDown = await runIn([credential, '--trust-list', empty, '--issuer', issuer.id, '--rpc', chain.chain.rpcUrl], nothingReachable);
      expect(keysDown.stdout).toContain('Issuer identity: could not check');
      expect(keysDown.stdout).toContain('Ministry signature: could not check');
      expect(keysDown.stdout).not.toContain('Issuer identity: passed');
      expect(keysDown.code).toBe(2);

      // No issuer pinned at all (an empty list): could not check, in French too.
      const none = await runIn([credential, '--trust-list', empty, '--lang', 'fr'], nothingReachable);
      expect(none.stdout).toContain("Identité de l'émetteur: pas pu être vérifié");
      expect(none.stdout).toContain('aucun émetteur épinglé');
      expect(none.code).toBe(2);
    });

    it('trust-list: writes and updates the entry of the issuer a running platform publishes', async () => {
      const dir = await tempDir();
      const out = path.join(dir, 'national.json');
      const base = 'https://minepst.gouv.cd';
      const publish = (keys: MinistryKeys['jwks']) =>
        serve({
          [`${base}/.well-known/sceau-issuer.json`]: {
            id: issuer.id,
            name: issuer.name,
            name_en: 'Ministry (test)',
            jwks_uri: `${base}/.well-known/jwks.json`,
            registry: { chain_id: chain.chain.chainId, address: chain.registry.address, rpc_url: chain.chain.rpcUrl },
          },
          [`${base}/.well-known/jwks.json`]: keys,
        });
      const written = await runIn(['trust-list', base, '--out', out], publish(ministry.jwks));
      expect(written.code).toBe(0);
      expect(written.stdout).toContain(`${issuer.name} (${issuer.id})`);

      // A key rotation: the same registry's entry is replaced, with both keys.
      const next = await createMinistryKeys();
      const rotated = await runIn(['trust-list', base, '--out', out], publish({ keys: [...ministry.jwks.keys, ...next.jwks.keys] }));
      expect(rotated.code).toBe(0);
      const list = JSON.parse(await fs.readFile(out, 'utf8')) as TrustList;
      expect(list.issuers).toHaveLength(1);
      expect(list.issuers[0]).toMatchObject({
        id: issuer.id,
        name_en: 'Ministry (test)',
        registry: { chain_id: chain.chain.chainId, address: chain.registry.address.toLowerCase() },
      });
      expect(list.issuers[0]!.jwks.keys).toHaveLength(2);

      const credential = await writeFile(dir, 'credential.json', JSON.stringify(batch.documents[0]));
      const checked = await runIn([credential, '--trust-list', out], nothingReachable);
      expect(checked.stdout).toContain(`Issuer checked: ${issuer.name} (${issuer.id})`);
      expect(checked.code).toBe(0);

      // A platform that answers something else: nothing written, exit 1.
      const broken = await runIn(['trust-list', base, '--out', out], serve({ [`${base}/.well-known/sceau-issuer.json`]: { id: issuer.id } }));
      expect(broken.code).toBe(1);
      expect((JSON.parse(await fs.readFile(out, 'utf8')) as TrustList).issuers[0]!.jwks.keys).toHaveLength(2);
    });

    it('a trust list that is not one is refused (exit 2), and so is a development list entry not marked as such', async () => {
      const dir = await tempDir();
      const credential = await writeFile(dir, 'credential.json', JSON.stringify(batch.documents[0]));
      const bad = await writeFile(dir, 'bad.json', JSON.stringify({ format: 'sceau-trust-list/1', issuers: [{ id: issuer.id }] }));
      const refused = await runIn([credential, '--trust-list', bad], nothingReachable);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain('issuers.0');

      // DATA_DIR/trust-list.json adds development entries only: an unmarked one there pins nothing.
      const planted = await tempDir();
      await writeList(planted, trustListFor(issuer, ministry.jwks, { rpcUrl: chain.chain.rpcUrl }));
      const ignored = await runIn([credential, '--json'], nothingReachable, { DATA_DIR: planted });
      expect(statusOf(JSON.parse(ignored.stdout))).toMatchObject({ issuer_identity: 'not-checked:no_trusted_issuer' });
      expect(ignored.code).toBe(2);
    });
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
