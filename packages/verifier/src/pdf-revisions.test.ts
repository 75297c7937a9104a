// Later revisions of a signed diploma (ADR 0138): the platform's own long-term-validation layers
// (@sceau/pdf addValidationData, addDocumentTimestamp, extendToLongTerm) are accepted; updates
// that change content, built here with @sceau/pdf's IncrementalUpdate, are refused.
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CredentialDocument, IssuerInfo } from '@sceau/credential';
import {
  addDocumentTimestamp,
  addValidationData,
  createCertificateRevocationList,
  createDevelopmentTsa,
  createKeySigner,
  createLocalTimeStampAuthority,
  extendToLongTerm,
  IncrementalUpdate,
  type LocalTimeStampAuthority,
  type Signer,
} from '@sceau/pdf';
import { createCms } from '@sceau/pdf/cms';
import { runCli } from './cli-run.ts';
import { analysePdfSignature, readRevisions, REVISION_LIMITS } from './pdf-revisions.ts';
import { apiContext, createMinistryKeys, createPdfFactory, issueBatch, issuerFor, trustListFor, type Batch, type MinistryKeys, type PdfFactory } from './test-support.ts';
import { formatTrustList } from './trust-list.ts';
import type { RegistryPort, VerificationContext } from './types.ts';
import { verify } from './verify.ts';

let ministry: MinistryKeys;
let issuer: IssuerInfo;
let batch: Batch;
let signed: Uint8Array;
let pdfs: PdfFactory;
let tsa: LocalTimeStampAuthority;
let validation: { certificates: Uint8Array[]; crls: Uint8Array[] };
let anchors: X509Certificate[];
let context: VerificationContext;

// The chain is not what this file tests (verify.test.ts and retired-keys.test.ts use a real Anvil):
// a registry port answering from memory that the batch is anchored and not revoked.
const registry = { chainId: 72328, address: `0x${'11'.repeat(20)}` };
const port: RegistryPort = {
  ...registry,
  isIssued: async () => true,
  isRevoked: async () => false,
  findIssuance: async () => ({ txHash: `0x${'22'.repeat(32)}`, blockNumber: 5, timestamp: Math.floor(Date.now() / 1000) - 60 }),
  findRevocation: async () => null,
};

beforeAll(async () => {
  ministry = await createMinistryKeys();
  issuer = issuerFor(registry);
  batch = await issueBatch(issuer, ministry.es256, 1);
  pdfs = await createPdfFactory(ministry.pdfSigner);
  signed = await pdfs.render(batch.documents[0]!, batch.qr[0]!);
  // The platform's own TSA: certified by the ministry's CA, as in development.
  const material = await createDevelopmentTsa({ ca: ministry.ca });
  tsa = createLocalTimeStampAuthority({ signer: createKeySigner({ privateKey: createPrivateKey(material.privateKeyPem), certificateChainDer: material.certificateChainDer }) });
  const crl = await createCertificateRevocationList({ ca: ministry.ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000), crlNumber: 1 });
  validation = { certificates: [...material.certificateChainDer], crls: [crl] };
  anchors = [new X509Certificate(material.certificateChainDer[1]!)];
  context = apiContext(issuer, ministry.jwks, port, new Map<string, CredentialDocument>(batch.documents.map((d) => [d.record.diploma_id!, d])));
}, 60_000);

const text = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1');

/** The signed revision's objects, found as the renderer and signer write them. */
function objects(pdf: Uint8Array) {
  const update = new IncrementalUpdate(pdf);
  const catalog = update.dictionary(update.xref.root);
  const page = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(update.dictionary(Number(/\/Pages (\d+) 0 R/.exec(catalog)![1])))![1]);
  const pageText = update.dictionary(page);
  const contents = Number(/\/Contents (\d+) 0 R/.exec(pageText)![1]);
  const filespec = Number(/\(credential\.json\) (\d+) 0 R/.exec(catalog)![1]);
  const embedded = Number(/\/EF << \/F (\d+) 0 R/.exec(update.dictionary(filespec))![1]);
  const info = Number(/\/Info (\d+) 0 R/.exec(update.xref.trailer)![1]);
  const font = Number(/\/Font << \/\w+ (\d+) 0 R/.exec(pageText)![1]);
  return { update, root: update.xref.root, catalog, page, pageText, contents, filespec, embedded, info, font };
}

/** An incremental update of `pdf`, written by `edit`. */
function updated(pdf: Uint8Array, edit: (o: ReturnType<typeof objects>) => void): Uint8Array {
  const o = objects(pdf);
  edit(o);
  return o.update.finish().pdf;
}

const analyse = (pdf: Uint8Array) => analysePdfSignature(pdf, anchors);

/**
 * A document time-stamp appended by hand, so that its parts can be wrong: the widget's /Rect, and a
 * /ByteRange that stops `shortBy` bytes before the revision's end.
 */
async function docStamp(pdf: Uint8Array, options: { rect?: string; shortBy?: number } = {}): Promise<Uint8Array> {
  const update = new IncrementalUpdate(pdf);
  const catalog = update.dictionary(update.xref.root);
  const [field, stamp] = [update.allocate(), update.allocate()];
  update.setObject(update.xref.root, catalog.replace(/\/Fields\s*\[([^\]]*)\]/, `/Fields [$1 ${field} 0 R]`));
  update.setObject(field, `<< /FT /Sig /T (Stamp) /Rect ${options.rect ?? '[0 0 0 0]'} /V ${stamp} 0 R >>`);
  const head = '<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 /ByteRange ';
  const room = tsa.maxTokenLength + 16;
  update.setObject(stamp, `${head}${' '.repeat(36)} /Contents <${'0'.repeat(room * 2)}> >>`);
  const { pdf: out, objects } = update.finish();
  const at = objects.get(stamp)!.bodyOffset + head.length;
  const gapStart = at + 36 + ' /Contents '.length;
  const gapEnd = gapStart + 2 + room * 2;
  const length = out.length - gapEnd - (options.shortBy ?? 0);
  out.set(Buffer.from(`[0 ${gapStart} ${gapEnd} ${length}]`.padEnd(36, ' '), 'latin1'), at);
  const token = await tsa.timestamp(
    createHash('sha256')
      .update(out.subarray(0, gapStart))
      .update(out.subarray(gapEnd, gapEnd + length))
      .digest(),
  );
  out.set(Buffer.from(Buffer.from(token).toString('hex').toUpperCase(), 'latin1'), gapStart + 1);
  return out;
}

/** A PAdES signature appended by hand (a forger's tool): a field in the form and its dictionary, over the whole file. */
async function resign(pdf: Uint8Array, signer: Signer): Promise<Uint8Array> {
  const update = new IncrementalUpdate(pdf);
  const catalog = update.dictionary(update.xref.root);
  const [field, signature] = [update.allocate(), update.allocate()];
  const form = /\/Fields\s*\[([^\]]*)\]/.test(catalog)
    ? catalog.replace(/\/Fields\s*\[([^\]]*)\]/, `/Fields [$1 ${field} 0 R]`)
    : catalog.replace(/>>\s*$/, ` /AcroForm << /Fields [${field} 0 R] /SigFlags 3 >> >>`);
  update.setObject(update.xref.root, form);
  update.setObject(field, `<< /FT /Sig /T (Again) /Rect [0 0 0 0] /V ${signature} 0 R >>`);
  const head = '<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ';
  const room = 8_000;
  update.setObject(signature, `${head}${' '.repeat(36)} /Contents <${'0'.repeat(room * 2)}> >>`);
  const { pdf: out, objects } = update.finish();
  const at = objects.get(signature)!.bodyOffset + head.length;
  const gapStart = at + 36 + ' /Contents '.length;
  const gapEnd = gapStart + 2 + room * 2;
  out.set(Buffer.from(`[0 ${gapStart} ${gapEnd} ${out.length - gapEnd}]`.padEnd(36, ' '), 'latin1'), at);
  const cms = await createCms(signer, createHash('sha256').update(out.subarray(0, gapStart)).update(out.subarray(gapEnd)).digest());
  out.set(Buffer.from(Buffer.from(cms).toString('hex').toUpperCase(), 'latin1'), gapStart + 1);
  return out;
}

/**
 * An update written by hand: `parts` one after the other, only those with a `num` listed in its
 * section (plus `extra` entries), and a trailer carrying /Root, /Info and /Prev.
 */
function rawUpdate(pdf: Uint8Array, parts: { num?: number; text: string }[], extra: [number, string][] = []): Uint8Array {
  const { update } = objects(pdf);
  let offset = pdf.length;
  const lines: [number, string][] = [...extra];
  for (const part of parts) {
    if (part.num !== undefined) lines.push([part.num, `${String(offset).padStart(10, '0')} 00000 n`]);
    offset += Buffer.byteLength(part.text, 'latin1');
  }
  lines.sort((a, b) => a[0] - b[0]);
  const xref = ['xref', ...lines.flatMap(([num, line]) => [`${num} 1`, `${line} `])].join('\n');
  const info = /\/Info (\d+) 0 R/.exec(update.xref.trailer)![1];
  const trailer = `trailer\n<< /Size ${update.xref.size + 1} /Root ${update.xref.root} 0 R /Info ${info} 0 R /Prev ${update.xref.startxref} >>\nstartxref\n${offset}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(pdf), Buffer.from(`${parts.map((p) => p.text).join('')}${xref}\n${trailer}`, 'latin1')]));
}

describe('later revisions that only add validation data are accepted', () => {
  it('a DSS-only update (certificates and a CRL)', async () => {
    const pdf = addValidationData(signed, validation);
    const analysis = analyse(pdf);
    expect(analysis).toMatchObject({ intact: true, coversWholeFile: true, later: { count: 1, dss: true, documentTimestamps: [] } });
    expect(analysis.signedBytes.length).toBe(signed.length);
    const result = await verify({ pdf }, context);
    expect(result.checks.find((c) => c.name === 'pdf_signature')).toMatchObject({ status: 'passed', code: 'pdf_signature_valid_ltv' });
    expect(result.verdict).toBe('authentic');
  });

  it('a document timestamp after the DSS (B-LTA): its byte range covers its revision and its imprint matches', async () => {
    const pdf = await addDocumentTimestamp(addValidationData(signed, validation), tsa);
    const analysis = analyse(pdf);
    expect(analysis.coversWholeFile).toBe(true);
    expect(analysis.later).toMatchObject({ count: 2, dss: true, documentTimestamps: [{ revision: 3, trusted: true }] });
    expect(analysis.later!.documentTimestamps[0]!.genTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    const result = await verify({ pdf }, context);
    expect(result.verdict).toBe('authentic');
    expect(result.checks.every((c) => c.status === 'passed')).toBe(true);
  });

  it('a document timestamp alone (no DSS), from a TSA nobody trusts: accepted, the timestamp said untrusted', async () => {
    const pdf = await addDocumentTimestamp(signed, tsa);
    const analysis = analysePdfSignature(pdf, []);
    expect(analysis.later).toMatchObject({ count: 1, dss: false, documentTimestamps: [{ trusted: false }] });
  });

  it('two layers (DSS and document timestamp, then again: the DSS redefined, a second timestamp)', async () => {
    const once = await extendToLongTerm(signed, validation, tsa);
    const crl2 = await createCertificateRevocationList({ ca: ministry.ca, revoked: [], thisUpdate: new Date(), nextUpdate: new Date(Date.now() + 86_400_000), crlNumber: 2 });
    const twice = await extendToLongTerm(once, { certificates: validation.certificates, crls: [crl2] }, tsa);
    expect(readRevisions(twice)).toHaveLength(2 + 4);
    const analysis = analyse(twice);
    expect(analysis.later).toMatchObject({ count: 4, dss: true });
    expect(analysis.later!.documentTimestamps.map((t) => t.revision)).toEqual([3, 5]);
    const result = await verify({ pdf: twice }, context);
    expect(result.verdict).toBe('authentic');
  });
});

describe('the independent verifier reports the later revisions', () => {
  it('names the layers of an accepted B-LTA diploma, and the revision and reason of a refused one', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sceau-revisions-'));
    try {
      const list = path.join(dir, 'trust-list.json');
      await fs.writeFile(list, formatTrustList(trustListFor(issuer, ministry.jwks)));
      const lta = path.join(dir, 'lta.pdf');
      await fs.writeFile(lta, await extendToLongTerm(signed, validation, tsa));
      const changed = path.join(dir, 'changed.pdf');
      await fs.writeFile(
        changed,
        updated(signed, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET'))),
      );
      const run = async (file: string) => {
        let stdout = '';
        const code = await runCli({
          argv: [file, '--trust-list', list, '--rpc', 'http://127.0.0.1:9'],
          env: {},
          stdout: (t) => (stdout += t),
          stderr: () => {},
          connectRegistry: () => port,
        });
        return { code, stdout };
      };
      const accepted = await run(lta);
      expect(accepted.stdout).toContain('[pdf_signature_valid_ltv]');
      expect(accepted.stdout).toMatch(/revisions added after signing: 2 · validation data \(DSS\) · document timestamp \d{4}-[\d-]+T[\d:.]+Z \(CN=Sceau Time-Stamping Authority/);
      expect(accepted.code).toBe(0);
      const refused = await run(changed);
      expect(refused.stdout).toContain('PDF signature: FAILED');
      expect(refused.stdout).toMatch(/\(revision 3: redefines object \d+ of an earlier revision\)/);
      expect(refused.code).toBe(1);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('later revisions that change anything else are refused', () => {
  const refused = async (pdf: Uint8Array, problem: RegExp) => {
    const analysis = analyse(pdf);
    expect(analysis.coversWholeFile).toBe(false);
    expect(analysis.later).toBeUndefined();
    expect(analysis.problem).toMatch(problem);
    const result = await verify({ pdf }, context);
    expect(result.checks.find((c) => c.name === 'pdf_signature')).toMatchObject({ status: 'failed', code: 'pdf_changed_after_signing' });
    expect(result.verdict).toBe('altered');
    return result;
  };

  it("an update replacing the page's content stream", async () => {
    const pdf = updated(signed, (o) => o.update.setStream(o.contents, '', Buffer.from('BT /Fd0 40 Tf 100 300 Td (Mention: TRES BIEN) Tj ET')));
    await refused(pdf, /revision 3: redefines object \d+ of an earlier revision/);
  });

  it('the same after a genuine DSS and document timestamp (a change hidden behind LTV layers)', async () => {
    const ltv = await extendToLongTerm(signed, validation, tsa);
    const pdf = updated(ltv, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET')));
    await refused(pdf, /revision 5: redefines object/);
  });

  it('an update replacing the embedded credential', async () => {
    const pdf = updated(signed, (o) => o.update.setStream(o.embedded, '/Type /EmbeddedFile', Buffer.from(JSON.stringify({ forged: true }))));
    await refused(pdf, /redefines object/);
  });

  it('an update adding an annotation to the page', async () => {
    const pdf = updated(signed, (o) => {
      const link = o.update.allocate();
      o.update.setObject(link, '<< /Type /Annot /Subtype /FreeText /Rect [100 100 400 200] /Contents (Mention: excellent) /DA (/Helv 20 Tf 0 g) >>');
      o.update.setObject(o.page, o.pageText.replace(/\/Annots \[([^\]]*)\]/, `/Annots [$1 ${link} 0 R]`));
    });
    await refused(pdf, /page \d+ gains an annotation that is not a document timestamp's widget/);
  });

  it('an update redefining another object of the signed revision (a font, the document information)', async () => {
    const font = updated(signed, (o) => o.update.setObject(o.font, o.update.dictionary(o.font)));
    await refused(font, new RegExp(`redefines object ${objects(signed).font} of an earlier revision`));
    const info = updated(signed, (o) => o.update.setObject(o.info, '<< /Title (Diplôme modifié) /Producer (Sceau) >>'));
    await refused(info, /redefines object/);
  });

  it('an update where the catalog changes something else than /DSS and /AcroForm', async () => {
    const pdf = updated(signed, (o) => o.update.setObject(o.root, o.catalog.replace(/>>\s*$/, ' /OpenAction << /S /URI /URI (https://example.org) >> >>')));
    await refused(pdf, /the catalog's \/OpenAction changed/);
    const names = updated(signed, (o) => o.update.setObject(o.root, o.catalog.replace('(credential.json)', '(other.json)')));
    await refused(names, /the catalog's \/Names changed/);
  });

  it('a DSS pointing at a redefined page content stream', async () => {
    const pdf = updated(signed, (o) => {
      const dss = o.update.allocate();
      o.update.setStream(o.contents, '', Buffer.from('BT ET'));
      o.update.setObject(dss, `<< /Type /DSS /Certs [${o.contents} 0 R] >>`);
      o.update.setObject(o.root, o.catalog.replace(/>>\s*$/, ` /DSS ${dss} 0 R >>`));
    });
    await refused(pdf, /the DSS points at object \d+, redefined, which is not validation data/);
  });

  it('a DSS stream that is something a viewer draws (a form XObject)', async () => {
    const pdf = updated(signed, (o) => {
      const [dss, xobject] = [o.update.allocate(), o.update.allocate()];
      o.update.setStream(xobject, '/Type /XObject /Subtype /Form /BBox [0 0 10 10]', Buffer.from('0 0 m 10 10 l S'));
      o.update.setObject(dss, `<< /Type /DSS /Certs [${xobject} 0 R] >>`);
      o.update.setObject(o.root, o.catalog.replace(/>>\s*$/, ` /DSS ${dss} 0 R >>`));
    });
    await refused(pdf, /a stream of \/DSS \/Certs has \/Type/);
  });

  it('an object added that nothing of the allow-list reaches', async () => {
    const pdf = updated(signed, (o) => o.update.setObject(o.update.allocate(), '<< /Type /Annot /Subtype /Text /Rect [0 0 50 50] >>'));
    await refused(pdf, /adds object \d+, which is neither validation data nor a document timestamp/);
  });

  it('an object written in the update but not listed in its section (read by parsers that ignore the table)', async () => {
    const o = objects(signed);
    const dss = o.update.nextObjectNumber;
    const pdf = rawUpdate(signed, [
      { text: `${o.contents} 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n` },
      { num: dss, text: `${dss} 0 obj\n<< /Type /DSS >>\nendobj\n` },
      { num: o.root, text: `${o.root} 0 obj\n${o.catalog.replace(/>>\s*$/, ` /DSS ${dss} 0 R >>`)}\nendobj\n` },
    ]);
    await refused(pdf, /bytes at \d+ that are not an object its section lists/);
    // The same update without the smuggled object is accepted: the refusal is the smuggling's.
    const clean = rawUpdate(signed, [
      { num: dss, text: `${dss} 0 obj\n<< /Type /DSS >>\nendobj\n` },
      { num: o.root, text: `${o.root} 0 obj\n${o.catalog.replace(/>>\s*$/, ` /DSS ${dss} 0 R >>`)}\nendobj\n` },
    ]);
    expect(analyse(clean)).toMatchObject({ coversWholeFile: true, later: { count: 1 } });
  });

  it('an update that frees an object of the signed revision', async () => {
    const o = objects(signed);
    const pdf = rawUpdate(signed, [], [[o.contents, '0000000000 00001 f']]);
    await refused(pdf, new RegExp(`frees object ${o.contents}`));
  });

  it('a document time-stamp written by hand: accepted as it should be, refused with a visible widget or a byte range short of its revision', async () => {
    expect(analyse(await docStamp(signed))).toMatchObject({ coversWholeFile: true, later: { count: 1, documentTimestamps: [{ trusted: true }] } });
    await refused(await docStamp(signed, { rect: '[100 100 300 200]' }), /field \d+'s widget is visible/);
    await refused(await docStamp(signed, { shortBy: 7 }), /the document timestamp's \/ByteRange does not cover exactly its revision/);
  });

  it('a document timestamp whose imprint no longer matches (a byte of the DSS it covers changed)', async () => {
    const pdf = Buffer.from(await extendToLongTerm(signed, validation, tsa));
    const revisions = readRevisions(pdf)!;
    // A byte inside the CRL stream of the DSS revision (its length and structure unchanged).
    const crlAt = text(pdf).indexOf('stream\n', revisions[2]!.start) + 'stream\n'.length + 40;
    pdf[crlAt] = pdf[crlAt]! ^ 0x01;
    await refused(new Uint8Array(pdf), /revision 4: document timestamp: time-stamp token: imprint is not the one requested/);
  });

  it("an update changing the page, then a new signature by the ministry's own key over it: refused (the first signature is the document's)", async () => {
    const changed = updated(signed, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET')));
    const resigned = await resign(changed, ministry.pdfSigner);
    await refused(resigned, /revision 3: redefines object/);
  });

  it('a signature over a document updated before it was signed (no earlier signature left): refused', async () => {
    const unsigned = await pdfs.unsigned(batch.documents[0]!, batch.qr[0]!);
    const changed = updated(unsigned, (o) => o.update.setStream(o.contents, '', Buffer.from('BT ET')));
    await refused(await resign(changed, ministry.pdfSigner), /the signature \(revision 3\) covers updates made to the document before it/);
    // The same signature on the rendered document alone is the ministry's own: accepted.
    expect(analyse(await resign(unsigned, ministry.pdfSigner))).toMatchObject({ intact: true, coversWholeFile: true });
  });

  it(`more than ${REVISION_LIMITS.laterRevisions} later revisions: refused`, async () => {
    let pdf = addValidationData(signed, validation);
    for (let i = 0; i < REVISION_LIMITS.laterRevisions + 2; i++) pdf = updated(pdf, (o) => o.update.setObject(o.root, o.catalog));
    expect(analyse(pdf).coversWholeFile).toBe(false);
    // At the limit, the same unchanged-catalog updates are accepted: the refusal is the count's.
    let within = addValidationData(signed, validation);
    for (let i = 0; i < REVISION_LIMITS.laterRevisions - 1; i++) within = updated(within, (o) => o.update.setObject(o.root, o.catalog));
    expect(analyse(within)).toMatchObject({ coversWholeFile: true, later: { count: REVISION_LIMITS.laterRevisions } });
  });

  it('what parsing an update may cost is bounded (values, string bytes, nesting, cross-reference entries), on the caller thread', async () => {
    const hostile = [
      updated(signed, (o) => o.update.setObject(o.update.allocate(), `[${'0 '.repeat(2_000_000)}]`)),
      updated(signed, (o) => o.update.setObject(o.update.allocate(), `(${'a'.repeat(4_000_000)})`)),
      updated(signed, (o) => o.update.setObject(o.update.allocate(), `<${'a'.repeat(4_000_000)}>`)),
      updated(signed, (o) => o.update.setObject(o.root, o.catalog.replace(/>>\s*$/, ` /DSS ${'<< /VRI '.repeat(40)}${'>> '.repeat(40)}>>`))),
      rawUpdate(
        signed,
        [],
        Array.from({ length: 30_000 }, (_, i): [number, string] => [1_000 + i, '0000000000 00000 f']),
      ),
    ];
    for (const pdf of hostile) {
      const started = performance.now();
      const analysis = analyse(pdf);
      expect(analysis.coversWholeFile).toBe(false);
      expect(analysis.later).toBeUndefined();
      // Under 4 MB: the budget stops the parse (~50 ms here on a loaded machine, against seconds unbounded).
      expect(performance.now() - started).toBeLessThan(1_500);
    }
  });

  it(`more than ${REVISION_LIMITS.objectsPerRevision} objects in one update: refused before reading them`, async () => {
    const pdf = updated(signed, (o) => {
      for (let i = 0; i <= REVISION_LIMITS.objectsPerRevision; i++) o.update.setObject(o.update.allocate(), 'null');
    });
    const analysis = analyse(pdf);
    expect(analysis.coversWholeFile).toBe(false);
  });
});
