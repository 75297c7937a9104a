// The forgery corpus of the verification engine and the independent CLI (issues 16 and 17;
// ADR 0135–0138, 0144, 0145, 0148). Every case is built here from a genuine diploma (a batch
// signed by the ministry's active key, anchored on a real Anvil chain, its PDF rendered, signed and
// time-stamped as the platform does, its SD-JWT VC and W3C VC), then run through EVERY path that
// accepts its form:
// - PDF, credential JSON, QR text: the engine with the platform's context (`verify`, what the API
//   runs: its store answers `issuedPdf`, its TSA is trusted) and the CLI with no option (its
//   default trust list: the shipped one plus the development platform's list in DATA_DIR);
// - SD-JWT VC and W3C VC: `verifyPortable` (what the API runs, with the platform's own status lists)
//   and the CLI with its default trust list (the status lists served by a stand-in for fetch).
// Each must be refused: never `authentic`; `incomplete` (could not check) only where an ADR says a
// verifier without the issuer's record cannot decide, and then the check it could not make is
// never `passed`. The API's own routes run the same classes in
// apps/api/src/modules/verification/forgery-corpus.test.ts. Documented in docs/security.md.
import { execFileSync } from 'node:child_process';
import { createHash, createHmac, createPrivateKey, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrFieldsFromDocument, shortKeyId, toBase64url, type CredentialDocument, type IssuerInfo } from '@sceau/credential';
import {
  addValidationData,
  createCertificateRevocationList,
  createDevelopmentTsa,
  createKeySigner,
  createLocalTimeStampAuthority,
  IncrementalUpdate,
  type LocalTimeStampAuthority,
} from '@sceau/pdf';
import { createCms } from '@sceau/pdf/cms';
import { issueDiplomaSdJwt, presentDiplomaSdJwt, verifyDiplomaSdJwt, vctUrl, type PublishedJwk, type RawEs256Signer } from '@sceau/sd-jwt';
import {
  buildDidDocument,
  buildOpenBadgeCredential,
  buildStatusListCredential,
  createDocumentLoader,
  encodeBitstring,
  encodeTokenStatusList,
  proofSigner,
  secureCredential,
} from '@sceau/vc';
import { diplomaInput, testIssuer, type TestIssuer } from '@sceau/vc/test-support';
import { runCli } from './cli-run.ts';
import { verifyPortable, type PortableContext, type PortableIssuer, type PortableResult } from './portable.ts';
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
import { formatTrustList, TRUST_LIST_FORMAT } from './trust-list.ts';
import type { Verdict, VerificationContext, VerificationInput } from './types.ts';
import { verify } from './verify.ts';

let chain: TestChain;
let active: MinistryKeys;
let retired: MinistryKeys;
let forger: MinistryKeys;
let issuer: IssuerInfo;
let genuine: Batch;
let afterRetirement: Batch;
let revocable: Batch;
let revokedBatch: Batch;
let pdfs: PdfFactory;
let genuinePdf: Uint8Array;
let tsa: LocalTimeStampAuthority;
let tsaAfter: LocalTimeStampAuthority;
let tsaSigner: ReturnType<typeof createKeySigner>;
let rogueTsa: LocalTimeStampAuthority;
let retiredAt: Date;
let platform: VerificationContext;
let dataDir: string;
let work: string;
const credentials = new Map<string, CredentialDocument>();
const issued = new Map<string, Uint8Array>();

/** Verdicts a forgery may get: refused outright, or (ADR 0148, 0137) "could not check" where allowed. */
const REFUSED: Verdict[] = ['altered', 'revoked', 'unknown', 'unpublished'];

beforeAll(async () => {
  [chain, active, retired, forger] = await Promise.all([startTestChain(), createMinistryKeys(), createMinistryKeys(), createMinistryKeys('Ministère (test)')]);
  issuer = issuerFor({ chainId: chain.chain.chainId, address: chain.registry.address });
  // The retired key was retired a day ago: anything anchored or time-stamped now is after it.
  retiredAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 86_400_000);
  genuine = await issueBatch(issuer, active.es256, 3);
  afterRetirement = await issueBatch(issuer, retired.es256, 1);
  revocable = await issueBatch(issuer, active.es256, 2);
  revokedBatch = await issueBatch(issuer, active.es256, 1);
  for (const b of [genuine, afterRetirement, revocable, revokedBatch]) {
    await chain.registry.issueRoot(`0x${b.merkleRoot}`);
    for (const doc of b.documents) credentials.set(doc.record.diploma_id!, doc);
  }
  await chain.registry.revoke(`0x${revocable.documents[0]!.signature.targetHash}`, 'fraude constatée');
  await chain.registry.revoke(`0x${revokedBatch.merkleRoot}`, 'lot annulé');

  const material = await createDevelopmentTsa({ ca: active.ca });
  tsaSigner = createKeySigner({ privateKey: createPrivateKey(material.privateKeyPem), certificateChainDer: material.certificateChainDer });
  tsa = createLocalTimeStampAuthority({ signer: tsaSigner });
  tsaAfter = tsa; // the trusted TSA's "now" is after the retirement
  const rogue = await createDevelopmentTsa({ ca: forger.ca });
  rogueTsa = createLocalTimeStampAuthority({
    signer: createKeySigner({ privateKey: createPrivateKey(rogue.privateKeyPem), certificateChainDer: rogue.certificateChainDer }),
    now: () => new Date(retiredAt.getTime() - 3_600_000),
  });

  const retiredKid = toBase64url(shortKeyId(retired.jwks.keys[0]!));
  const jwks = {
    keys: [
      { ...retired.jwks.keys[0]!, kid: retiredKid, status: 'retired', retired_at: retiredAt.toISOString() },
      { ...active.jwks.keys[0]!, kid: toBase64url(shortKeyId(active.jwks.keys[0]!)), status: 'active' },
    ],
  };
  pdfs = await createPdfFactory(active.pdfSigner);
  genuinePdf = await pdfs.render(genuine.documents[0]!, genuine.qr[0]!, { signOptions: { timestamper: tsa } });
  for (const [i, doc] of genuine.documents.entries()) issued.set(doc.record.diploma_id!, i === 0 ? genuinePdf : new Uint8Array());
  // The platform's context: its store answers whether it issued a signed revision (ADR 0148).
  platform = {
    ...apiContext(issuer, jwks as never, chain.port, credentials),
    issuedPdf: async (id, signed) => {
      const file = issued.get(id);
      return !!file && file.length >= signed.length && Buffer.from(file.subarray(0, signed.length)).equals(signed);
    },
  };
  // The CLI's default trust list: the development platform's, written in DATA_DIR at its start.
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-corpus-data-'));
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-corpus-'));
  await fs.writeFile(path.join(dataDir, 'trust-list.json'), formatTrustList(trustListFor(issuer, jwks as never, { development: true, rpcUrl: chain.chain.rpcUrl })));
  await setUpPortable();
}, 180_000);

afterAll(async () => {
  await chain?.stop();
  for (const dir of [dataDir, work, portableData]) if (dir) await fs.rm(dir, { recursive: true, force: true });
});

// ------------------------------------------------------------------------------ the paths

const nothingReachable = (async () => {
  throw new TypeError('fetch failed');
}) as typeof fetch;

/** The CLI with no option (its default trust list), as a stranger runs it on a file or a QR text. */
async function cli(target: string | Uint8Array, name: string, fetchImpl: typeof fetch = nothingReachable, env: NodeJS.ProcessEnv = {}) {
  const argv0 = typeof target === 'string' && name === 'qr' ? target : path.join(work, name);
  if (argv0 !== target) await fs.writeFile(argv0, target);
  let stdout = '';
  const code = await runCli({ argv: [argv0, '--json'], env: { DATA_DIR: dataDir, ...env }, stdout: (t) => (stdout += t), stderr: (t) => (stdout += t), fetch: fetchImpl });
  return { code, stdout };
}

/** Neither path calls it authentic; a not-checked check is never reported passed. */
function expectRefused(result: { verdict: Verdict; checks: readonly { name: string; status: string; code: string }[] }, allowed: Verdict[], codes?: RegExp) {
  expect(allowed, JSON.stringify(result.checks)).toContain(result.verdict);
  expect(result.verdict).not.toBe('authentic');
  if (result.verdict === 'incomplete') expect(result.checks.some((c) => c.status === 'not-checked')).toBe(true);
  if (codes)
    expect(
      result.checks
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}:${c.code}`)
        .join(' '),
    ).toMatch(codes);
}

function expectCliRefused(run: { code: number; stdout: string }, allowed: Verdict[], codes?: RegExp) {
  expect(run.code, run.stdout).not.toBe(0);
  const result = JSON.parse(run.stdout) as { verdict: Verdict; checks: { name: string; status: string; code: string }[] };
  expectRefused(result, allowed, codes);
  expect(run.code).toBe(result.verdict === 'incomplete' ? 2 : 1);
}

interface EngineCase {
  name: string;
  /** What must refuse it, by which check (documentation and the failing codes expected). */
  refusedBy: RegExp;
  form: 'pdf' | 'credential' | 'qr';
  build: () => Promise<Uint8Array | CredentialDocument | string>;
  /** The platform's verdicts; default REFUSED. */
  platform?: Verdict[];
  /** The CLI's verdicts; default REFUSED. ADR 0148: without the issuer's record a retired key's undated signature is "could not check". */
  offline?: Verdict[];
  offlineCodes?: RegExp;
}

const input = (form: EngineCase['form'], value: Uint8Array | CredentialDocument | string): VerificationInput =>
  form === 'pdf' ? { pdf: value as Uint8Array } : form === 'credential' ? { credential: value as CredentialDocument } : { qr: value as string };

// ------------------------------------------------------------------------------ PDF helpers

/** The signed revision's objects, as the renderer and signer write them. */
function objects(pdf: Uint8Array) {
  const update = new IncrementalUpdate(pdf);
  const catalog = update.dictionary(update.xref.root);
  const page = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(update.dictionary(Number(/\/Pages (\d+) 0 R/.exec(catalog)![1])))![1]);
  const pageText = update.dictionary(page);
  const contents = Number(/\/Contents (\d+) 0 R/.exec(pageText)![1]);
  const filespec = Number(/\(credential\.json\) (\d+) 0 R/.exec(catalog)![1]);
  const embedded = Number(/\/EF << \/F (\d+) 0 R/.exec(update.dictionary(filespec))![1]);
  return { update, root: update.xref.root, catalog, page, pageText, contents, filespec, embedded };
}

function updated(pdf: Uint8Array, edit: (o: ReturnType<typeof objects>) => void): Uint8Array {
  const o = objects(pdf);
  edit(o);
  return o.update.finish().pdf;
}

const latin1 = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1');

/** A copy of `doc` with its printed name changed (what a forger prints), the genuine credential attached. */
function renamed(doc: CredentialDocument): CredentialDocument {
  const copy = structuredClone(doc);
  copy.record.last_name = 'Faussaire';
  return copy;
}

// ------------------------------------------------------------------------------ the engine cases

const engineCases: EngineCase[] = [
  // PDF
  {
    name: 'PDF: one byte of the signed revision changed (the document information)',
    form: 'pdf',
    refusedBy: /pdf_signature_invalid|pdf_/,
    build: async () => {
      const bytes = Buffer.from(genuinePdf);
      const at = bytes.indexOf('/Producer (Sceau)', 0, 'latin1') + '/Producer (Scea'.length;
      bytes[at] = 'v'.charCodeAt(0);
      return new Uint8Array(bytes);
    },
  },
  {
    name: "PDF: the page's visible text changed by an incremental update",
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () => updated(genuinePdf, (o) => o.update.setStream(o.contents, '', Buffer.from('BT /Fd0 40 Tf 100 300 Td (Mention: TRES BIEN) Tj ET'))),
  },
  {
    name: 'PDF: an update adding an annotation drawn over the page',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const note = o.update.allocate();
        o.update.setObject(note, '<< /Type /Annot /Subtype /FreeText /Rect [100 100 400 200] /Contents (Pourcentage: 95) /DA (/Helv 20 Tf 0 g) >>');
        o.update.setObject(o.page, o.pageText.replace(/\/Annots \[([^\]]*)\]/, `/Annots [$1 ${note} 0 R]`));
      }),
  },
  {
    name: 'PDF: an update adding a filled text form field with a visible widget',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const field = o.update.allocate();
        o.update.setObject(field, `<< /Type /Annot /Subtype /Widget /FT /Tx /T (mention) /V (Grande distinction) /Rect [50 50 300 80] /P ${o.page} 0 R >>`);
        o.update.setObject(o.root, o.catalog.replace(/\/Fields\s*\[([^\]]*)\]/, `/Fields [$1 ${field} 0 R]`));
        o.update.setObject(o.page, o.pageText.replace(/\/Annots \[([^\]]*)\]/, `/Annots [$1 ${field} 0 R]`));
      }),
  },
  {
    name: 'PDF: the content stream overwritten in place (same length), the signature kept',
    form: 'pdf',
    refusedBy: /pdf_signature_invalid|pdf_/,
    build: async () => {
      const bytes = Buffer.from(genuinePdf);
      const { contents } = objects(genuinePdf);
      const at = latin1(genuinePdf).indexOf('stream', latin1(genuinePdf).indexOf(`\n${contents} 0 obj`)) + 'stream\n'.length;
      for (let i = 0; i < 16; i++) bytes[at + i] = bytes[at + i]! ^ 0x20;
      return new Uint8Array(bytes);
    },
  },
  {
    name: "PDF: an update appended, the signature's /ByteRange widened (same width) to cover it",
    form: 'pdf',
    refusedBy: /pdf_/,
    build: async () => {
      const changed = Buffer.from(updated(genuinePdf, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET'))));
      const text = latin1(changed);
      const match = /\/ByteRange\s*\[\s*0 (\d+) (\d+) (\d+)\s*\]/.exec(text)!;
      const replacement = `/ByteRange [0 ${match[1]} ${match[2]} ${changed.length - Number(match[2])}]`;
      expect(replacement.length).toBeLessThanOrEqual(match[0].length + 1);
      const at = match.index;
      changed.set(Buffer.from(replacement.padEnd(match[0].length, ' ').slice(0, match[0].length), 'latin1'), at);
      return new Uint8Array(changed);
    },
  },
  {
    name: "PDF: an object smuggled into an update's body but not into its cross-reference section",
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () => {
      const o = objects(genuinePdf);
      const dss = o.update.nextObjectNumber;
      const parts = [
        { text: `${o.contents} 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n` },
        { num: dss, text: `${dss} 0 obj\n<< /Type /DSS >>\nendobj\n` },
        { num: o.root, text: `${o.root} 0 obj\n${o.catalog.replace(/>>\s*$/, ` /DSS ${dss} 0 R >>`)}\nendobj\n` },
      ];
      let offset = genuinePdf.length;
      const lines: [number, string][] = [];
      for (const part of parts) {
        if (part.num !== undefined) lines.push([part.num, `${String(offset).padStart(10, '0')} 00000 n`]);
        offset += Buffer.byteLength(part.text, 'latin1');
      }
      lines.sort((a, b) => a[0] - b[0]);
      const xref = ['xref', ...lines.flatMap(([num, line]) => [`${num} 1`, `${line} `])].join('\n');
      const info = /\/Info (\d+) 0 R/.exec(o.update.xref.trailer)![1];
      const trailer = `trailer\n<< /Size ${o.update.xref.size + 1} /Root ${o.root} 0 R /Info ${info} 0 R /Prev ${o.update.xref.startxref} >>\nstartxref\n${offset}\n%%EOF\n`;
      return new Uint8Array(Buffer.concat([Buffer.from(genuinePdf), Buffer.from(`${parts.map((p) => p.text).join('')}${xref}\n${trailer}`, 'latin1')]));
    },
  },
  {
    name: 'PDF: an object appended after the last %%EOF with no cross-reference section (read by parsers that scan the body)',
    form: 'pdf',
    refusedBy: /pdf_/,
    build: async () => {
      const { contents } = objects(genuinePdf);
      const smuggled = `\n${contents} 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n`;
      return new Uint8Array(Buffer.concat([Buffer.from(genuinePdf), Buffer.from(smuggled, 'latin1')]));
    },
  },
  {
    name: 'PDF: a second approval signature appended by a look-alike signer (invisible field, nothing else changed)',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing|pdf_/,
    build: async () => {
      const update = new IncrementalUpdate(genuinePdf);
      const catalog = update.dictionary(update.xref.root);
      const [field, signature] = [update.allocate(), update.allocate()];
      update.setObject(update.xref.root, catalog.replace(/\/Fields\s*\[([^\]]*)\]/, `/Fields [$1 ${field} 0 R]`));
      update.setObject(field, `<< /FT /Sig /T (Approval) /Rect [0 0 0 0] /V ${signature} 0 R >>`);
      const head = '<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ';
      const room = 8_000;
      update.setObject(signature, `${head}${' '.repeat(36)} /Contents <${'0'.repeat(room * 2)}> >>`);
      const { pdf: out, objects: written } = update.finish();
      const at = written.get(signature)!.bodyOffset + head.length;
      const gapStart = at + 36 + ' /Contents '.length;
      const gapEnd = gapStart + 2 + room * 2;
      out.set(Buffer.from(`[0 ${gapStart} ${gapEnd} ${out.length - gapEnd}]`.padEnd(36, ' '), 'latin1'), at);
      const cms = await createCms(forger.pdfSigner, createHash('sha256').update(out.subarray(0, gapStart)).update(out.subarray(gapEnd)).digest());
      out.set(Buffer.from(Buffer.from(cms).toString('hex').toUpperCase(), 'latin1'), gapStart + 1);
      return out;
    },
  },
  {
    name: "PDF: PDF syntax (a page content object) hidden in the zero padding of the signature's /Contents, the part its /ByteRange excludes",
    form: 'pdf',
    refusedBy: /pdf_/,
    build: async () => {
      const bytes = Buffer.from(genuinePdf);
      const text = latin1(genuinePdf);
      const range = /\/ByteRange\s*\[\s*0 (\d+) (\d+) (\d+)\s*\]/.exec(text)!;
      const gapEnd = Number(range[2]) - 1; // the closing '>'
      const { contents } = objects(genuinePdf);
      const hidden = `> ${contents} 0 obj << /Length 5 >> stream\nBT ET\nendstream endobj %`;
      bytes.set(Buffer.from(hidden, 'latin1'), gapEnd - hidden.length);
      return new Uint8Array(bytes);
    },
  },
  {
    name: 'PDF: the embedded credential replaced by an update (another person’s)',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () => updated(genuinePdf, (o) => o.update.setStream(o.embedded, '/Type /EmbeddedFile', Buffer.from(JSON.stringify(genuine.documents[1])))),
  },
  {
    name: 'PDF: a second credential attached by an update (the names tree gains a file)',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () =>
      updated(genuinePdf, (o) => {
        const [file, spec] = [o.update.allocate(), o.update.allocate()];
        o.update.setStream(file, '/Type /EmbeddedFile', Buffer.from(JSON.stringify(genuine.documents[1])));
        o.update.setObject(spec, `<< /Type /Filespec /F (credential2.json) /UF (credential2.json) /EF << /F ${file} 0 R >> >>`);
        o.update.setObject(o.root, o.catalog.replace(/\(credential\.json\) (\d+) 0 R/, `(credential.json) $1 0 R (credential2.json) ${spec} 0 R`));
      }),
  },
  {
    name: 'PDF: a DSS update (genuine validation data) that also changes the page',
    form: 'pdf',
    refusedBy: /pdf_changed_after_signing/,
    build: async () => {
      const crl = await createCertificateRevocationList({ ca: active.ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000), crlNumber: 7 });
      const withDss = addValidationData(genuinePdf, { certificates: [], crls: [crl] });
      return updated(withDss, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET')));
    },
  },
  {
    name: "PDF: another diploma's QR payload printed on a PDF the ministry signed (the QR does not match the credential)",
    form: 'pdf',
    refusedBy: /qr|mismatch|integrity/,
    build: async () => pdfs.render(genuine.documents[0]!, genuine.qr[1]!, { signOptions: { timestamper: tsa } }),
  },
  {
    name: "PDF: another person's credential attached to a PDF printed for the first (signed by the ministry)",
    form: 'pdf',
    refusedBy: /qr|mismatch|integrity/,
    build: async () => pdfs.render(genuine.documents[0]!, genuine.qr[0]!, { attached: genuine.documents[1]!, signOptions: { timestamper: tsa } }),
  },
  {
    name: 'PDF: signed by a look-alike CA carrying the ministry’s name',
    form: 'pdf',
    refusedBy: /pdf_signer_unknown|pdf_/,
    build: async () => pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: forger.pdfSigner }),
  },
  {
    name: 'PDF: re-rendered, its name changed, signed with the retired key and no time-stamp (the platform holds another file)',
    form: 'pdf',
    refusedBy: /pdf_not_issued/,
    build: async () => pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: retired.pdfSigner }),
    offline: ['incomplete'],
    offlineCodes: /pdf_signing_time_unknown/,
  },
  {
    name: 'PDF: signed with the retired key, time-stamped by the trusted TSA after the retirement',
    form: 'pdf',
    refusedBy: /pdf_key_retired/,
    build: async () =>
      pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: retired.pdfSigner, signOptions: { timestamper: tsaAfter } }),
    offlineCodes: /pdf_key_retired/,
  },
  {
    name: 'PDF: signed with the retired key, time-stamped "before the retirement" by a TSA nobody trusts',
    form: 'pdf',
    refusedBy: /pdf_not_issued/,
    build: async () =>
      pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: retired.pdfSigner, signOptions: { timestamper: rogueTsa } }),
    offline: ['incomplete'],
    offlineCodes: /pdf_signing_time_unknown/,
  },
  {
    name: 'PDF: signed with the retired key, carrying a genuine time-stamp token from before the retirement transplanted from another signature',
    form: 'pdf',
    refusedBy: /pdf_not_issued|pdf_signature:/,
    build: async () => {
      // A genuine token of the trusted TSA, dated before the retirement, over another signature's value.
      const before = createLocalTimeStampAuthority({ signer: tsaSigner, now: () => new Date(retiredAt.getTime() - 3_600_000) });
      const token = await before.timestamp(new Uint8Array(32).fill(7));
      const transplant = { maxTokenLength: before.maxTokenLength, timestamp: async () => token };
      return pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: retired.pdfSigner, signOptions: { timestamper: transplant } });
    },
    offline: ['altered', 'incomplete'],
  },
  {
    name: 'PDF: a batch signed with the retired key and anchored after its retirement, rendered and signed with it',
    form: 'pdf',
    refusedBy: /key_retired/,
    build: async () => pdfs.render(afterRetirement.documents[0]!, afterRetirement.qr[0]!, { signer: retired.pdfSigner }),
    offlineCodes: /key_retired/,
  },
  {
    name: 'PDF: a genuine PDF of a revoked diploma',
    form: 'pdf',
    refusedBy: /diploma_revoked/,
    build: async () => {
      const pdf = await pdfs.render(revocable.documents[0]!, revocable.qr[0]!, { signOptions: { timestamper: tsa } });
      issued.set(revocable.documents[0]!.record.diploma_id!, pdf);
      return pdf;
    },
  },
  // Credential JSON
  {
    name: 'credential: one claim changed (the percentage)',
    form: 'credential',
    refusedBy: /integrity|hash|mismatch/,
    build: async () => {
      const doc = structuredClone(genuine.documents[0]!);
      doc.record.percentage = 91;
      return doc;
    },
  },
  {
    name: "credential: another diploma's proof (signature block) pasted on it",
    form: 'credential',
    refusedBy: /integrity|hash|mismatch|proof/,
    build: async () => ({ ...structuredClone(genuine.documents[0]!), signature: structuredClone(genuine.documents[1]!.signature) }),
  },
  {
    name: 'credential: a look-alike issuer (own key, same name and id, its own copy of the registry)',
    form: 'credential',
    refusedBy: /issuer_mismatch|unknown_key|registry/,
    build: async () => {
      const copy = await chain.deployCopy();
      const forged = await issueBatch(issuerFor({ chainId: chain.chain.chainId, address: copy.address }), forger.es256, 1);
      await copy.issueRoot(`0x${forged.merkleRoot}`);
      return forged.documents[0]!;
    },
  },
  {
    name: 'credential: signed with the retired key, its batch anchored after the retirement',
    form: 'credential',
    refusedBy: /key_retired/,
    build: async () => afterRetirement.documents[0]!,
  },
  { name: 'credential: a revoked diploma', form: 'credential', refusedBy: /diploma_revoked/, build: async () => revocable.documents[0]! },
  { name: 'credential: a diploma of a revoked batch', form: 'credential', refusedBy: /batch_revoked/, build: async () => revokedBatch.documents[0]! },
  // QR
  {
    name: 'QR: signed by a look-alike key carrying the real kid',
    form: 'qr',
    refusedBy: /signature|unknown_key/,
    build: async () => signQr({ ...qrFieldsFromDocument(genuine.documents[0]!) }, { kid: active.es256.kid, sign: forger.es256.sign }),
  },
  {
    name: "QR: a genuine QR's fields changed (another target hash), the signature kept",
    form: 'qr',
    refusedBy: /signature/,
    build: async () => {
      const text = genuine.qr[0]!;
      const i = text.length - 12;
      return `${text.slice(0, i)}${text[i] === 'A' ? 'B' : 'A'}${text.slice(i + 1)}`;
    },
  },
  {
    name: 'QR: signed with the retired key for a batch anchored after the retirement',
    form: 'qr',
    refusedBy: /key_retired|signing_time_unknown/,
    build: async () => afterRetirement.qr[0]!,
    offline: ['altered', 'incomplete'],
  },
  { name: 'QR: of a revoked diploma', form: 'qr', refusedBy: /diploma_revoked/, build: async () => revocable.qr[0]! },
  {
    name: 'QR: of a diploma whose batch is revoked',
    form: 'qr',
    refusedBy: /batch_revoked|batch_unchecked/,
    build: async () => revokedBatch.qr[0]!,
    // Offline, the CLI has the QR alone (the platform unreachable): its batch cannot be checked (ADR 0137).
    offline: ['revoked', 'incomplete'],
    offlineCodes: /batch_unchecked|batch_revoked/,
  },
];

describe('genuine controls (the corpus can fail): authentic on every path', () => {
  it('the genuine PDF, credential and QR', async () => {
    for (const [form, value, name] of [
      ['pdf', genuinePdf, 'genuine.pdf'],
      ['credential', genuine.documents[0]!, 'genuine.json'],
    ] as const) {
      const result = await verify(input(form, value), platform);
      expect(result.verdict, `${form} ${JSON.stringify(result.checks)}`).toBe('authentic');
      const run = await cli(form === 'pdf' ? (value as Uint8Array) : JSON.stringify(value), name);
      expect(run.code, run.stdout).toBe(0);
    }
    expect((await verify({ qr: genuine.qr[0]! }, platform)).verdict).toBe('authentic');
  });
});

describe('a look-alike platform answering the CLI for a bare QR', () => {
  // The CLI asks SCEAU_PUBLIC_URL (or --platform) for a bare QR's credential: a hostile platform
  // answers with another person's genuine credential, or with one it signed itself.
  const hostile = (credential: unknown) =>
    (async () => new Response(JSON.stringify({ data: { credential } }), { status: 200, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;

  it("a genuine QR, the platform answering another person's genuine credential: refused (the QR does not match it)", async () => {
    const run = await cli(genuine.qr[0]!, 'qr', hostile(genuine.documents[1]), { SCEAU_PUBLIC_URL: 'https://diplomes-example.cd' });
    expectCliRefused(run, REFUSED, /integrity:/);
  });

  it('a QR of the look-alike key carrying the real kid, the platform answering a credential of its own signed by the same key: refused', async () => {
    const copy = await chain.deployCopy();
    const forged = await issueBatch(issuerFor({ chainId: chain.chain.chainId, address: copy.address }), forger.es256, 1);
    await copy.issueRoot(`0x${forged.merkleRoot}`);
    const qr = await signQr(qrFieldsFromDocument(forged.documents[0]!), { kid: active.es256.kid, sign: forger.es256.sign });
    const run = await cli(qr, 'qr', hostile(forged.documents[0]), { SCEAU_PUBLIC_URL: 'https://diplomes-example.cd' });
    expectCliRefused(run, REFUSED);
  });
});

describe('outside validators agree (poppler pdfsig, OpenSSL CMS) on the genuine PDF and two forgeries', () => {
  /** The first signature's CMS and the bytes its /ByteRange covers, as files for openssl. */
  async function cmsParts(pdf: Uint8Array, name: string) {
    const text = latin1(pdf);
    const range = /\/ByteRange\s*\[\s*0 (\d+) (\d+) (\d+)\s*\]/.exec(text)!;
    const [a, b, c] = [Number(range[1]), Number(range[2]), Number(range[3])];
    const hex = text.slice(a + 1, b - 1).replace(/0+$/, '');
    const der = path.join(work, `${name}.p7s`);
    const content = path.join(work, `${name}.bin`);
    await fs.writeFile(der, Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
    await fs.writeFile(content, Buffer.concat([pdf.subarray(0, a), pdf.subarray(b, b + c)]));
    return { der, content };
  }
  const run = (command: string, args: string[]) => {
    try {
      return { ok: true, out: execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  };

  it('genuine: valid for both; a byte flipped in the signed revision: invalid for both; signed by a look-alike CA: OpenSSL refuses it against the ministry CA', async () => {
    const ca = path.join(work, 'ministry-ca.pem');
    await fs.writeFile(ca, active.ca.certificatePem);
    const flipped = Buffer.from(genuinePdf);
    const at = flipped.indexOf('/Producer (Sceau)', 0, 'latin1') + '/Producer (Scea'.length;
    flipped[at] = 'v'.charCodeAt(0);
    const lookAlikePdf = await pdfs.render(renamed(genuine.documents[0]!), genuine.qr[0]!, { attached: genuine.documents[0]!, signer: forger.pdfSigner });
    const files: Record<string, Uint8Array> = { genuine: genuinePdf, flipped: new Uint8Array(flipped), lookalike: lookAlikePdf };
    const verdicts: Record<string, { pdfsig: string; cms: boolean }> = {};
    for (const [name, pdf] of Object.entries(files)) {
      const file = path.join(work, `${name}.pdf`);
      await fs.writeFile(file, pdf);
      const pdfsig = run('pdfsig', [file]).out;
      const { der, content } = await cmsParts(pdf, name);
      const cms = run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', der, '-content', content, '-CAfile', ca, '-purpose', 'any', '-out', '/dev/null']);
      verdicts[name] = { pdfsig, cms: cms.ok };
    }
    expect(verdicts.genuine!.pdfsig).toContain('Signature is Valid.');
    expect(verdicts.genuine!.cms).toBe(true);
    expect(verdicts.flipped!.pdfsig).toMatch(/Signature is Invalid|Digest Mismatch/i);
    expect(verdicts.flipped!.cms).toBe(false);
    // pdfsig has no trust anchor for either CA (its own store): the signature itself is intact. OpenSSL, given the ministry's CA, refuses it.
    expect(verdicts.lookalike!.cms).toBe(false);
  });
});

describe('forgeries of the PDF, the credential and the QR: refused by the platform engine and by the CLI with its default trust list', () => {
  for (const forgery of engineCases) {
    it(forgery.name, async () => {
      const value = await forgery.build();
      const result = await verify(input(forgery.form, value), platform);
      expectRefused(result, forgery.platform ?? REFUSED, forgery.refusedBy);
      expect(result.diploma === undefined || result.verdict === 'revoked').toBe(true);
      const name = forgery.form === 'pdf' ? 'forged.pdf' : forgery.form === 'credential' ? 'forged.json' : 'qr';
      const payload = forgery.form === 'credential' ? JSON.stringify(value) : (value as string | Uint8Array);
      const run = await cli(payload, name);
      expectCliRefused(run, forgery.offline ?? REFUSED, forgery.offlineCodes);
    });
  }
});

// ------------------------------------------------------------------------------ portable forms

const PLATFORM = 'https://diplomes.example.cd';
const TOKEN_URL = `${PLATFORM}/credentials/status/0/token`;
const LIST_URL = `${PLATFORM}/credentials/status/0`;
const REVOKED_INDEX = 9;

let ministry: TestIssuer;
let lookAlike: TestIssuer;
let signer: RawEs256Signer;
let retiredSigner: RawEs256Signer;
let pinned: PortableIssuer;
let portableData: string;
const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const claims = {
  diploma_id: 'AAAAAAAAAAAAAAAAAAAAAA',
  kind: 'diplome_etat' as const,
  session: 'Juin 2026',
  session_year: 2026,
  issue_date: '2026-07-20',
  family_name: 'MUKENDI',
  given_name: 'Grâce',
  birthdate: '2008-03-14',
  place_of_birth: 'Kananga',
  gender: 'F' as const,
  option: 'Scientifique',
  option_code: 'SC',
  school: 'Lycée Lumière',
  school_code: 'LL01',
  centre: 'Institut St Joseph',
  centre_code: 'C12',
  province: 'Kasaï-Central 1',
  province_code: 'KC1',
  percentage: 71.5,
};

const rawSigner = (kid: string, key: import('node:crypto').KeyObject): RawEs256Signer => ({
  kid,
  sign: async (data) => new Uint8Array(nodeSign('sha256', data, { key, dsaEncoding: 'ieee-p1363' })),
});

async function setUpPortable() {
  ministry = await testIssuer([{ retiredAt: new Date(Date.now() - 86_400_000).toISOString() }]);
  lookAlike = await testIssuer();
  const [old, current] = ministry.keys;
  signer = rawSigner(current!.kid, current!.privateKey);
  retiredSigner = rawSigner(old!.kid, old!.privateKey);
  const keys = ministry.keys.map((k): PublishedJwk => ({ ...k.publicJwk, kid: k.kid, ...(k.retiredAt ? { retired_at: k.retiredAt } : {}) }));
  pinned = { url: PLATFORM, id: 'minepst.gouv.cd', name: 'Ministère', jwks: { keys } };
  portableData = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-corpus-portable-'));
  await fs.writeFile(
    path.join(portableData, 'trust-list.json'),
    JSON.stringify({
      format: TRUST_LIST_FORMAT,
      issuers: [
        {
          id: 'minepst.gouv.cd',
          name: 'Ministère',
          development: true,
          jwks_uri: `${PLATFORM}/.well-known/jwks.json`,
          jwks: { keys },
          registry: { chain_id: 72328, address: `0x${'ab'.repeat(20)}` },
        },
      ],
    }),
  );
}

async function tokenStatusList() {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const head = `${b64({ alg: 'ES256', typ: 'statuslist+jwt', kid: signer.kid })}.${b64({ iss: PLATFORM, sub: TOKEN_URL, iat, exp: iat + 3600, status_list: encodeTokenStatusList([REVOKED_INDEX]) })}`;
  return `${head}.${Buffer.from(await signer.sign(new TextEncoder().encode(head))).toString('base64url')}`;
}

const statusListCredential = () =>
  secureCredential(buildStatusListCredential({ id: LIST_URL, issuer: ministry.did, validFrom: new Date(Date.now() - 60_000), encodedList: encodeBitstring([REVOKED_INDEX]) }), {
    signer: ministry.signer(),
    documentLoader: ministry.loader(),
  });

const portableContext = (): PortableContext => ({
  issuers: [pinned],
  fetchTokenStatusList: async (uri) => {
    if (uri !== TOKEN_URL) throw new Error('unknown list');
    return tokenStatusList();
  },
  fetchStatusListCredential: async (url) => (url === LIST_URL ? statusListCredential() : null),
});

const platformFetch = (async (input: string | URL | Request) => {
  const url = String(input);
  if (url === TOKEN_URL) return new Response(await tokenStatusList(), { headers: { 'content-type': 'application/statuslist+jwt' } });
  if (url === LIST_URL) return new Response(JSON.stringify(await statusListCredential()), { headers: { 'content-type': 'application/vc+ld+json' } });
  return new Response('not found', { status: 404 });
}) as typeof fetch;

const sdJwt = (options: { issuer?: string; with?: RawEs256Signer; idx?: number; values?: Partial<typeof claims>; holderKey?: boolean } = {}) =>
  issueDiplomaSdJwt({
    issuer: options.issuer ?? PLATFORM,
    vct: vctUrl(options.issuer ?? PLATFORM),
    claims: { ...claims, ...options.values },
    signer: options.with ?? signer,
    status: { idx: options.idx ?? 7, uri: TOKEN_URL },
    ...(options.holderKey ? { holderPublicJwk: holder.publicKey.export({ format: 'jwk' }) as never } : {}),
  });

async function openBadge(overrides: Parameters<typeof diplomaInput>[1] = {}, by: TestIssuer = ministry, kid?: string, extra: Record<string, unknown> = {}) {
  const loader = by.loader(async (url) => (url === LIST_URL ? statusListCredential() : null));
  const unsigned = { ...buildOpenBadgeCredential(diplomaInput(by.did, { issuedAt: new Date(Date.now() - 3_600_000), ...overrides })), ...extra };
  return (await secureCredential(unsigned, {
    signer: by.signer(kid),
    documentLoader: loader,
  })) as Record<string, unknown>;
}

const b64json = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (compact: string) => {
  const [jwt, ...rest] = compact.split('~');
  const [header, payload, signature] = jwt!.split('.');
  return { header: header!, payload: payload!, signature: signature!, disclosures: rest.filter(Boolean), kb: compact.endsWith('~') ? '' : rest.at(-1)! };
};
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
const disclosureNamed = (compact: string, claim: string) =>
  parts(compact).disclosures.find((d) => (JSON.parse(Buffer.from(d, 'base64url').toString('utf8')) as unknown[])[1] === claim)!;

interface PortableCase {
  name: string;
  refusedBy: RegExp;
  build: () => Promise<string>;
  verdicts?: Verdict[];
}

const deep = (depth: number) => `{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"],"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;

const portableCases: PortableCase[] = [
  // SD-JWT VC
  {
    name: 'SD-JWT: a disclosure swapped for the same claim of another credential (another percentage)',
    refusedBy: /disclos|digest|sd_jwt/,
    build: async () => {
      const mine = await sdJwt();
      const theirs = await sdJwt({ values: { percentage: 93 } });
      return mine.replace(disclosureNamed(mine, 'percentage'), disclosureNamed(theirs, 'percentage'));
    },
  },
  {
    name: 'SD-JWT: a disclosure added that no digest of `_sd` commits',
    refusedBy: /disclos|digest|sd_jwt/,
    build: async () => {
      const extra = Buffer.from(JSON.stringify(['c2FsdHNhbHRzYWx0', 'mention', 'Grande distinction'])).toString('base64url');
      return `${await sdJwt()}${extra}~`;
    },
  },
  {
    name: 'SD-JWT: a plain payload claim changed (session_year), the signature kept',
    refusedBy: /signature/,
    build: async () => {
      const p = parts(await sdJwt());
      const payload = { ...decode(p.payload), session_year: 2027 };
      return `${p.header}.${b64json(payload)}.${p.signature}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: 'SD-JWT: `iss` a look-alike address, signed by its own key',
    refusedBy: /issuer|iss/,
    build: async () => sdJwt({ issuer: 'https://diplomes-example.cd', with: rawSigner(lookAlike.keys[0]!.kid, lookAlike.keys[0]!.privateKey) }),
  },
  {
    name: 'SD-JWT: signed by a look-alike key carrying the real kid and iss',
    refusedBy: /signature/,
    build: async () => sdJwt({ with: rawSigner(signer.kid, lookAlike.keys[0]!.privateKey) }),
  },
  {
    name: 'SD-JWT: `kid` of a retired key, issued after its retirement',
    refusedBy: /retired|signature/,
    build: async () => sdJwt({ with: retiredSigner }),
  },
  {
    name: 'SD-JWT: the retired key, `iat` backdated to before its retirement (a signing time the signer chose)',
    refusedBy: /issuer_signature:signing_time_unknown|issuer_signature:key_retired/,
    verdicts: [...REFUSED, 'incomplete'],
    build: async () =>
      issueDiplomaSdJwt({
        issuer: PLATFORM,
        vct: vctUrl(PLATFORM),
        claims: { ...claims, family_name: 'FAUSSAIRE', percentage: 95 },
        signer: retiredSigner,
        status: { idx: 3, uri: TOKEN_URL },
        iat: Math.floor(Date.now() / 1000) - 3 * 86_400,
      }),
  },
  {
    name: 'SD-JWT: `alg: none`, no signature',
    refusedBy: /signature|sd_jwt_malformed|alg/,
    build: async () => {
      const p = parts(await sdJwt());
      return `${b64json({ ...decode(p.header), alg: 'none' })}.${p.payload}.~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: "SD-JWT: HS256 with the ministry's public key as the HMAC secret",
    refusedBy: /signature|sd_jwt_malformed|alg/,
    build: async () => {
      const p = parts(await sdJwt());
      const header = b64json({ ...decode(p.header), alg: 'HS256' });
      const key = pinned.jwks.keys.find((k) => k.kid === signer.kid)!;
      const mac = createHmac('sha256', JSON.stringify(key)).update(`${header}.${p.payload}`).digest('base64url');
      return `${header}.${p.payload}.${mac}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: "SD-JWT: bound to a holder's key, presented with a key-binding JWT signed by another key",
    // The library refuses the whole presentation (its signature check fails with the key binding).
    refusedBy: /key_binding:|issuer_signature:bad_signature/,
    build: async () => {
      const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      return presentDiplomaSdJwt(await sdJwt({ holderKey: true }), ['family_name'], {
        signer: { sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: stranger.privateKey, dsaEncoding: 'ieee-p1363' })) },
        aud: 'https://verifier.example',
        nonce: 'n-1',
      } as never);
    },
  },
  {
    name: 'SD-JWT: a status index changed to a list entry that is not revoked (the signature kept)',
    refusedBy: /signature/,
    build: async () => {
      const p = parts(await sdJwt({ idx: REVOKED_INDEX }));
      const payload = decode(p.payload) as { status: { status_list: { idx: number } } };
      payload.status.status_list.idx = 3;
      return `${p.header}.${b64json(payload)}.${p.signature}~${p.disclosures.join('~')}~`;
    },
  },
  {
    name: 'SD-JWT: a genuine disclosure repeated (the same digest disclosed twice)',
    refusedBy: /integrity:/,
    build: async () => {
      const compact = await sdJwt();
      return `${compact}${disclosureNamed(compact, 'percentage')}~`;
    },
  },
  {
    name: 'SD-JWT: a key-binding JWT appended to a credential that names no holder key (no `cnf`)',
    refusedBy: /key_binding:|integrity:|issuer_signature:/,
    build: async () => {
      const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const header = b64json({ alg: 'ES256', typ: 'kb+jwt' });
      const payload = b64json({ iat: Math.floor(Date.now() / 1000), aud: 'https://verifier.example', nonce: 'n', sd_hash: 'x' });
      const signature = nodeSign('sha256', Buffer.from(`${header}.${payload}`), { key: stranger.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      return `${await sdJwt()}${header}.${payload}.${signature}`;
    },
  },
  {
    name: 'SD-JWT: a disclosure nested 40,000 arrays deep (bounded time, no crash)',
    refusedBy: /integrity:|issuer_signature:/,
    build: async () => `${await sdJwt()}${Buffer.from(`["c2FsdA","mention",${'['.repeat(40_000)}${']'.repeat(40_000)}]`).toString('base64url')}~`,
  },
  {
    name: 'SD-JWT: a payload nested 25,000 objects deep, the signature kept (bounded time, no crash)',
    refusedBy: /integrity:|issuer_signature:/,
    build: async () => {
      const [jwt, ...rest] = (await sdJwt()).split('~');
      const [header, , signature] = jwt!.split('.');
      const payload = Buffer.from(`{"iss":"https://diplomes.example.cd","x":${'{"a":'.repeat(25_000)}1${'}'.repeat(25_000)}}`).toString('base64url');
      return `${header}.${payload}.${signature}~${rest.join('~')}`;
    },
  },
  { name: 'SD-JWT: a revoked diploma', refusedBy: /revoked/, build: () => sdJwt({ idx: REVOKED_INDEX }) },
  {
    name: 'SD-JWT: larger than 256 KB (refused before parsing)',
    refusedBy: /too_large/,
    build: async () => `${await sdJwt()}${'A'.repeat(300 * 1024)}~`,
  },
  // W3C VC
  {
    name: 'VC: a claim changed (the holder’s name)',
    refusedBy: /proof|signature/,
    build: async () => {
      const vc = await openBadge();
      (vc.credentialSubject as { name: string }).name = 'Faussaire';
      return JSON.stringify(vc);
    },
  },
  {
    name: 'VC: the proof of another credential pasted on it',
    refusedBy: /proof|signature/,
    build: async () => {
      const mine = await openBadge();
      const theirs = await openBadge({ percentage: 95 });
      return JSON.stringify({ ...mine, proof: theirs.proof });
    },
  },
  {
    name: "VC: the pinned did:web named, proof made by a look-alike's key (its own verification method id)",
    refusedBy: /issuer_signature:bad_signature/,
    // testIssuer() names the same did:web (the same address) with another key: the pinned DID's keys refuse it.
    build: async () => JSON.stringify(await openBadge({}, lookAlike)),
  },
  {
    name: 'VC: issuer swapped to a look-alike did:web (did:web:diplomes-example.cd), signed by its own key, same name',
    refusedBy: /issuer/,
    build: async () => {
      const did = 'did:web:diplomes-example.cd';
      const key = lookAlike.keys[0]!;
      const document = await buildDidDocument(did, [key]);
      const loader = createDocumentLoader({ didDocuments: [document], resolve: async (url) => (url === LIST_URL ? statusListCredential() : null) });
      const sign = async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }));
      const unsigned = buildOpenBadgeCredential(diplomaInput(did, { issuedAt: new Date(Date.now() - 3_600_000) }));
      return JSON.stringify(await secureCredential(unsigned, { signer: proofSigner(`${did}#${key.kid}`, sign), documentLoader: loader }));
    },
  },
  {
    name: 'VC: the status list index moved to an entry that is not revoked (the proof kept)',
    refusedBy: /proof|signature/,
    build: async () => {
      const vc = await openBadge({ status: { index: REVOKED_INDEX, statusListCredential: LIST_URL } });
      (vc.credentialStatus as { statusListIndex: string }).statusListIndex = '3';
      return JSON.stringify(vc);
    },
  },
  { name: 'VC: a revoked diploma', refusedBy: /revoked/, build: async () => JSON.stringify(await openBadge({ status: { index: REVOKED_INDEX, statusListCredential: LIST_URL } })) },
  {
    name: 'VC: a proof by the retired key, made after its retirement',
    refusedBy: /retired|issuer|proof/,
    build: async () => JSON.stringify(await openBadge({}, ministry, ministry.keys[0]!.kid)),
  },
  {
    name: 'VC: a proof by the retired key, `created` backdated to before its retirement (a signing time the signer chose)',
    refusedBy: /issuer_signature:signing_time_unknown|issuer:|key_retired/,
    verdicts: [...REFUSED, 'incomplete'],
    build: async () => {
      const loader = ministry.loader(async (url) => (url === LIST_URL ? statusListCredential() : null));
      const unsigned = buildOpenBadgeCredential(diplomaInput(ministry.did, { issuedAt: new Date(Date.now() - 5 * 86_400_000), percentage: 95 }));
      const vc = await secureCredential(unsigned, { signer: ministry.signer(ministry.keys[0]!.kid), documentLoader: loader, date: new Date(Date.now() - 3 * 86_400_000) });
      return JSON.stringify(vc);
    },
  },
  {
    name: 'VC: validUntil in the past (expired), signed by the issuer',
    refusedBy: /expir|valid/,
    build: async () => {
      const vc = await openBadge({ issuedAt: new Date(Date.now() - 10 * 86_400_000) }, ministry, undefined, {
        validUntil: new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      });
      expect(vc.validUntil).toBeDefined();
      return JSON.stringify(vc);
    },
  },
  {
    name: 'VC: an unknown context injected (a remote address the verifier would have to fetch)',
    refusedBy: /issuer_signature:|integrity:/,
    build: async () => {
      const vc = await openBadge();
      return JSON.stringify({ ...vc, '@context': [...(vc['@context'] as string[]), 'https://evil.example/context.json'] });
    },
  },
  {
    name: 'VC: a property added that its proof does not cover (a mention in credentialSubject)',
    refusedBy: /issuer_signature:|integrity:/,
    build: async () => {
      const vc = await openBadge();
      return JSON.stringify({ ...vc, credentialSubject: { ...(vc.credentialSubject as object), mention: 'Grande distinction' } });
    },
  },
  {
    name: 'VC: an inline context redefining a term (the holder’s name read from another property)',
    refusedBy: /issuer_signature:|integrity:/,
    build: async () => {
      const vc = await openBadge();
      const subject = vc.credentialSubject as Record<string, unknown>;
      return JSON.stringify({
        ...vc,
        '@context': [...(vc['@context'] as string[]), { name: 'https://example.org/ignored#name' }],
        credentialSubject: { ...subject, name: 'Faussaire' },
      });
    },
  },
  {
    name: 'VC: a second proof added, made by a look-alike key',
    refusedBy: /issuer_signature:|integrity:|issuer_identity:/,
    build: async () => {
      const vc = await openBadge();
      const other = await openBadge({}, lookAlike);
      return JSON.stringify({ ...vc, proof: [vc.proof, other.proof] });
    },
  },
  {
    name: 'VC: larger than 256 KB (refused before parsing)',
    refusedBy: /too_large/,
    build: async () => JSON.stringify({ ...(await openBadge()), padding: 'x'.repeat(300 * 1024) }),
  },
  {
    name: 'VC: nested 50,000 arrays deep within the size bound (bounded time, no crash)',
    refusedBy: /./,
    build: async () => deep(50_000),
  },
];

describe('forgeries of the SD-JWT VC and the W3C VC: refused by the platform engine and by the CLI with its default trust list', () => {
  it('genuine controls: the SD-JWT VC and the VC are authentic on both paths', async () => {
    for (const text of [await sdJwt(), JSON.stringify(await openBadge())]) {
      const result = (await verifyPortable(text, portableContext()))!;
      expect(result.verdict, JSON.stringify(result.checks)).toBe('authentic');
      const file = path.join(work, text.startsWith('{') ? 'genuine-vc.json' : 'genuine.sd-jwt');
      await fs.writeFile(file, text);
      let stdout = '';
      const code = await runCli({ argv: [file], env: { DATA_DIR: portableData }, stdout: (t) => (stdout += t), stderr: (t) => (stdout += t), fetch: platformFetch });
      expect(code, stdout).toBe(0);
    }
  });

  for (const forgery of portableCases) {
    it(forgery.name, async () => {
      const text = await forgery.build();
      const started = performance.now();
      const result = await verifyPortable(text, portableContext());
      const platformResult: PortableResult | null = result;
      if (platformResult) expectRefused(platformResult, forgery.verdicts ?? REFUSED, forgery.refusedBy);
      else expect(text.length).toBeLessThanOrEqual(256 * 1024); // not taken as a portable form at all: the other forms refuse it below
      const file = path.join(work, text.trimStart().startsWith('{') ? 'forged-vc.json' : 'forged.sd-jwt');
      await fs.writeFile(file, text);
      let stdout = '';
      const code = await runCli({ argv: [file], env: { DATA_DIR: portableData }, stdout: (t) => (stdout += t), stderr: (t) => (stdout += t), fetch: platformFetch });
      expect(code, stdout).not.toBe(0);
      expect(stdout).not.toContain('AUTHENTIC');
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  }

  it('the status lists of a revoked diploma replaced on the way (a hijacked address): signed by a look-alike key, or by the retired key: never authentic', async () => {
    const lists = async (by: RawEs256Signer, vcSigner: ReturnType<TestIssuer['signer']>) => {
      const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const iat = Math.floor(Date.now() / 1000) - 3 * 86_400;
      const head = `${b64({ alg: 'ES256', typ: 'statuslist+jwt', kid: by.kid })}.${b64({ iss: PLATFORM, sub: TOKEN_URL, iat, exp: Math.floor(Date.now() / 1000) + 3600, status_list: encodeTokenStatusList([]) })}`;
      const token = `${head}.${Buffer.from(await by.sign(new TextEncoder().encode(head))).toString('base64url')}`;
      const credential = await secureCredential(
        buildStatusListCredential({ id: LIST_URL, issuer: ministry.did, validFrom: new Date(Date.now() - 60_000), encodedList: encodeBitstring([]) }),
        { signer: vcSigner, documentLoader: ministry.loader(), date: new Date(Date.now() - 3 * 86_400_000) },
      ).catch(() => null);
      return (async (input: string | URL | Request) => {
        const url = String(input);
        if (url === TOKEN_URL) return new Response(token, { headers: { 'content-type': 'application/statuslist+jwt' } });
        if (url === LIST_URL && credential) return new Response(JSON.stringify(credential), { headers: { 'content-type': 'application/vc+ld+json' } });
        return new Response('not found', { status: 404 });
      }) as typeof fetch;
    };
    const lookAlikeKey = rawSigner(signer.kid, lookAlike.keys[0]!.privateKey);
    const forgedLists = {
      'look-alike key': await lists(
        lookAlikeKey,
        proofSigner(`${ministry.did}#${signer.kid}`, (data) => lookAlikeKey.sign(data)),
      ),
      'retired key': await lists(retiredSigner, ministry.signer(ministry.keys[0]!.kid)),
    };
    const revokedSdJwt = await sdJwt({ idx: REVOKED_INDEX });
    const revokedVc = JSON.stringify(await openBadge({ status: { index: REVOKED_INDEX, statusListCredential: LIST_URL } }));
    for (const [how, fetchImpl] of Object.entries(forgedLists)) {
      for (const [text, file] of [
        [revokedSdJwt, 'revoked.sd-jwt'],
        [revokedVc, 'revoked-vc.json'],
      ] as const) {
        await fs.writeFile(path.join(work, file), text);
        let stdout = '';
        const code = await runCli({
          argv: [path.join(work, file), '--json'],
          env: { DATA_DIR: portableData },
          stdout: (t) => (stdout += t),
          stderr: (t) => (stdout += t),
          fetch: fetchImpl,
        });
        expect(code, `${how} ${file}: ${stdout}`).not.toBe(0);
        const result = JSON.parse(stdout) as PortableResult;
        expect(result.checks.find((c) => c.name === 'not_revoked')?.status, `${how} ${file}`).not.toBe('passed');
      }
    }
  });

  // Found by this corpus: a presentation made for another verifier (`aud`) with the same nonce
  // passed; verifyDiplomaSdJwt now takes `keyBindingAudience` and refuses another audience.
  it('SD-JWT key binding required: a presentation made for another audience, with the expected nonce, is refused', async () => {
    const credential = await sdJwt({ holderKey: true });
    const holderSigner = { sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: holder.privateKey, dsaEncoding: 'ieee-p1363' })) };
    const elsewhere = await presentDiplomaSdJwt(credential, ['family_name'], { signer: holderSigner, aud: 'https://another-verifier.example', nonce: 'challenge-1' });
    const options = {
      jwks: pinned.jwks,
      issuer: PLATFORM,
      keyBindingNonce: 'challenge-1',
      keyBindingAudience: 'https://verifier.example',
      fetchStatusList: async () => tokenStatusList(),
    };
    expect((await verifyDiplomaSdJwt(elsewhere, options)).checks.find((c) => c.name === 'key_binding')).toMatchObject({ status: 'failed', code: 'key_binding_audience' });
    const here = await presentDiplomaSdJwt(credential, ['family_name'], { signer: holderSigner, aud: 'https://verifier.example', nonce: 'challenge-1' });
    expect((await verifyDiplomaSdJwt(here, options)).checks.find((c) => c.name === 'key_binding')?.status).toBe('passed');
  });

  it('SD-JWT key binding required with a nonce (a verifier that sent a challenge): a presentation for another nonce or audience is refused', async () => {
    const credential = await sdJwt({ holderKey: true });
    const holderSigner = { sign: async (data: Uint8Array) => new Uint8Array(nodeSign('sha256', data, { key: holder.privateKey, dsaEncoding: 'ieee-p1363' })) };
    const options = { jwks: pinned.jwks, issuer: PLATFORM, keyBindingNonce: 'challenge-1', fetchStatusList: async () => tokenStatusList() };
    const good = await presentDiplomaSdJwt(credential, ['family_name'], { signer: holderSigner, aud: 'https://verifier.example', nonce: 'challenge-1' });
    expect((await verifyDiplomaSdJwt(good, options)).checks.find((c) => c.name === 'key_binding')?.status).toBe('passed');
    const replayed = await presentDiplomaSdJwt(credential, ['family_name'], { signer: holderSigner, aud: 'https://verifier.example', nonce: 'old-challenge' });
    expect((await verifyDiplomaSdJwt(replayed, options)).checks.find((c) => c.name === 'key_binding')?.status).toBe('failed');
    const bare = await presentDiplomaSdJwt(credential, ['family_name']);
    expect((await verifyDiplomaSdJwt(bare, options)).checks.find((c) => c.name === 'key_binding')?.status).not.toBe('passed');
  });
});
