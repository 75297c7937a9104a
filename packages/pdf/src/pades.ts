// PAdES signing, each level an incremental update: B-B (the signature field and its dictionary),
// B-T (the signature value time-stamped inside the CMS), B-LT (the DSS with certificates and
// revocation data), B-LTA (a document time-stamp); and verification of the byte ranges, message
// digest and CMS signature with node:crypto.
import { X509Certificate, createHash, verify as cryptoVerify, type Hash } from 'node:crypto';
import { createCms, maxCmsLength, parseCms, type Signer, type TimeStamper } from './cms.ts';
import { readNode } from './der.ts';
import { verifyTimeStampToken, type TimeStampInfo } from './tsp.ts';
import { IncrementalUpdate, addDictionaryEntry, readPlainStream } from './incremental.ts';
import { latin1, pdfDate, pdfTextString, ref } from './pdf-syntax.ts';

export interface SignOptions {
  reason?: string;
  location?: string;
  /** Claimed signing time written to /M (default: now). */
  signingTime?: Date;
  /**
   * A SHA-256 already fed with the PDF's first `length` bytes (the renderer's shared prefix:
   * `DiplomaRenderer.hashedPrefix()`), so that they are not hashed again for every document. The
   * caller vouches that those bytes are the PDF's; the hash is copied, never changed.
   */
  hashedPrefix?: HashedPrefix;
  /** PAdES B-T: time-stamps the signature value (unsigned signature-time-stamp attribute). */
  timestamper?: TimeStamper | undefined;
}

/** The state of a SHA-256 over a PDF's first `length` bytes. */
export interface HashedPrefix {
  length: number;
  hash: Hash;
}

const decoder = new TextDecoder('latin1');

const BYTE_RANGE_WIDTH = 36;

/**
 * Signs a PDF (PAdES-B-B, ETSI.CAdES.detached) by appending an incremental update: an invisible
 * signature field on the first page and the signature dictionary, whose /ByteRange covers the
 * whole resulting file. Works on PDFs with classic cross-reference tables (the renderer's output).
 */
export async function signPdf(pdf: Uint8Array, signer: Signer, options: SignOptions = {}): Promise<Uint8Array> {
  const update = new IncrementalUpdate(pdf);
  const root = update.xref.root;
  const catalog = update.dictionary(root);
  if (catalog.includes('/AcroForm')) throw new Error('PDF: already has a form; signing it is not supported');
  const { pageNumber, page } = firstPage(update, catalog);
  if (page.includes('/Annots')) throw new Error('PDF: page annotations are not supported');

  const fieldNumber = update.allocate();
  const signatureNumber = update.allocate();
  const contentsLength = maxCmsLength(signer, options.timestamper) + 16;
  const now = options.signingTime ?? new Date();
  const extra = [options.reason ? `/Reason ${pdfTextString(options.reason)}` : '', options.location ? `/Location ${pdfTextString(options.location)}` : '']
    .filter(Boolean)
    .join(' ');

  update.setObject(root, addDictionaryEntry(catalog, `/AcroForm << /Fields [${ref(fieldNumber)}] /SigFlags 3 >>`));
  update.setObject(pageNumber, addDictionaryEntry(page, `/Annots [${ref(fieldNumber)}]`));
  update.setObject(fieldNumber, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /F 132 /Rect [0 0 0 0] /P ${ref(pageNumber)} /V ${ref(signatureNumber)} >>`);
  const head = `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M ${pdfDate(now)}${extra ? ` ${extra}` : ''} /ByteRange `;
  return placeAndFill(update, signatureNumber, head, contentsLength, options.hashedPrefix, (digest) => createCms(signer, digest, { timestamper: options.timestamper }));
}

function firstPage(update: IncrementalUpdate, catalog: string): { pageNumber: number; page: string } {
  const pagesNumber = Number(/\/Pages (\d+) 0 R/.exec(catalog)?.[1]);
  const pages = update.dictionary(pagesNumber);
  const pageNumber = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(pages)?.[1]);
  return { pageNumber, page: update.dictionary(pageNumber) };
}

/**
 * Writes a signature dictionary whose text starts with `head` (ending in "/ByteRange "), with a
 * /ByteRange placeholder of fixed width and /Contents last; finishes the update, fills the byte
 * range, digests the covered bytes (SHA-256) and writes what `contents` returns over that digest.
 */
async function placeAndFill(
  update: IncrementalUpdate,
  signatureNumber: number,
  head: string,
  contentsLength: number,
  hashedPrefix: HashedPrefix | undefined,
  contents: (digest: Uint8Array) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  update.setObject(signatureNumber, `${head}${' '.repeat(BYTE_RANGE_WIDTH)} /Contents <${'0'.repeat(contentsLength * 2)}> >>`);
  const { pdf: out, objects } = update.finish();
  const byteRangeAt = objects.get(signatureNumber)!.bodyOffset + head.length;
  const gapStart = byteRangeAt + BYTE_RANGE_WIDTH + ' /Contents '.length;
  const gapEnd = gapStart + 2 + contentsLength * 2;
  const byteRange = `[0 ${gapStart} ${gapEnd} ${out.length - gapEnd}]`;
  if (byteRange.length > BYTE_RANGE_WIDTH) throw new Error('PDF too large for the byte range placeholder');
  out.set(latin1(byteRange.padEnd(BYTE_RANGE_WIDTH, ' ')), byteRangeAt);

  const known = hashedPrefix && hashedPrefix.length <= gapStart ? hashedPrefix : null;
  const digest = (known ? known.hash.copy().update(out.subarray(known.length, gapStart)) : createHash('sha256').update(out.subarray(0, gapStart)))
    .update(out.subarray(gapEnd))
    .digest();
  const value = await contents(digest);
  if (value.length > contentsLength) throw new Error(`signature of ${value.length} bytes, larger than the ${contentsLength} reserved`);
  out.set(latin1(Buffer.from(value).toString('hex').toUpperCase()), gapStart + 1);
  return out;
}

/** Validation data for the DSS (DER): certificates, CRLs and OCSP responses. */
export interface ValidationData {
  certificates: Uint8Array[];
  crls?: Uint8Array[];
  ocsps?: Uint8Array[];
}

const dssKeys = { certificates: 'Certs', crls: 'CRLs', ocsps: 'OCSPs' } as const;

/**
 * PAdES B-LT: appends an incremental update holding the document security store (/DSS in the
 * catalog) with `data`, merged with what an earlier DSS held (an item already there, byte for byte,
 * is not added twice). Earlier signatures stay valid: nothing before is changed.
 */
export function addValidationData(pdf: Uint8Array, data: ValidationData): Uint8Array {
  const update = new IncrementalUpdate(pdf);
  const root = update.xref.root;
  const catalog = update.dictionary(root);
  const existingNumber = Number(/\/DSS (\d+) 0 R/.exec(catalog)?.[1] ?? 0);
  if (!existingNumber && catalog.includes('/DSS')) throw new Error('PDF: a /DSS that is not an indirect reference is not supported');
  const existing = existingNumber ? update.dictionary(existingNumber) : '';
  const arrays: string[] = [];
  for (const [field, key] of Object.entries(dssKeys) as [keyof ValidationData, string][]) {
    const refs = [...(new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(existing)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
    const present = new Set(refs.map((n) => streamDigest(pdf, update, n)).filter(Boolean));
    for (const item of data[field] ?? []) {
      const digest = createHash('sha256').update(item).digest('hex');
      if (present.has(digest)) continue;
      present.add(digest);
      const number = update.allocate();
      update.setStream(number, '', item);
      refs.push(number);
    }
    if (refs.length) arrays.push(`/${key} [${refs.map(ref).join(' ')}]`);
  }
  const dssNumber = existingNumber || update.allocate();
  update.setObject(dssNumber, `<< /Type /DSS ${arrays.join(' ')} >>`);
  if (!existingNumber) update.setObject(root, addDictionaryEntry(catalog, `/DSS ${ref(dssNumber)}`));
  return update.finish().pdf;
}

/** SHA-256 (hex) of an unfiltered stream object with a direct /Length, or null. */
function streamDigest(pdf: Uint8Array, update: IncrementalUpdate, objectNumber: number): string | null {
  const data = readPlainStream(pdf, update.xref, objectNumber);
  return data ? createHash('sha256').update(data).digest('hex') : null;
}

export interface DocumentTimestampOptions {
  /** As in SignOptions: a SHA-256 over the file's first bytes, not hashed again. */
  hashedPrefix?: HashedPrefix;
}

/**
 * PAdES B-LTA: appends a document time-stamp (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161) whose
 * token covers the whole resulting file but its own /Contents, in an invisible field on page 1.
 */
export async function addDocumentTimestamp(pdf: Uint8Array, timestamper: TimeStamper, options: DocumentTimestampOptions = {}): Promise<Uint8Array> {
  const update = new IncrementalUpdate(pdf);
  const root = update.xref.root;
  const catalog = update.dictionary(root);
  const fields = /\/AcroForm\s*<<\s*\/Fields\s*\[([^\]]*)\]/.exec(catalog);
  if (!fields) throw new Error('PDF: no signature form (sign the PDF first)');
  const { pageNumber, page } = firstPage(update, catalog);
  const annots = /\/Annots\s*\[([^\]]*)\]/.exec(page);
  if (!annots) throw new Error('PDF: the first page has no annotation array');

  const fieldNumber = update.allocate();
  const signatureNumber = update.allocate();
  const count = [...fields[1]!.matchAll(/\d+ 0 R/g)].length;
  const at = fields.index + fields[0].length - 1;
  update.setObject(root, `${catalog.slice(0, at).trimEnd()} ${ref(fieldNumber)}${catalog.slice(at)}`);
  const annotsAt = annots.index + annots[0].length - 1;
  update.setObject(pageNumber, `${page.slice(0, annotsAt).trimEnd()} ${ref(fieldNumber)}${page.slice(annotsAt)}`);
  update.setObject(fieldNumber, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (DocTimeStamp${count}) /F 132 /Rect [0 0 0 0] /P ${ref(pageNumber)} /V ${ref(signatureNumber)} >>`);
  const head = '<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 /ByteRange ';
  return placeAndFill(update, signatureNumber, head, timestamper.maxTokenLength + 16, options.hashedPrefix, (digest) => timestamper.timestamp(digest));
}

/**
 * PAdES B-LT then B-LTA in one call: the DSS with `validation`, then a document time-stamp. Also
 * what re-time-stamping does to an archived diploma (with fresh validation data).
 */
export async function extendToLongTerm(pdf: Uint8Array, validation: ValidationData, timestamper: TimeStamper, options: DocumentTimestampOptions = {}): Promise<Uint8Array> {
  return addDocumentTimestamp(addValidationData(pdf, validation), timestamper, options);
}

interface FoundSignature {
  /** A signature (ETSI.CAdES.detached) or a document time-stamp (ETSI.RFC3161). */
  kind: 'signature' | 'timestamp';
  /** Offset of its /ByteRange. */
  at: number;
  range?: [number, number, number, number];
  /** The /Contents hex text. */
  hex?: string;
  problem?: string;
}

/**
 * Every signature dictionary's /ByteRange in file order, classified by the dictionary it is in (the
 * text between the preceding "obj" and the /ByteRange), with its range checked: starts at 0, inside
 * the file, excluding exactly a hex /Contents string.
 */
function findSignatures(buffer: Buffer): FoundSignature[] {
  const out: FoundSignature[] = [];
  for (let at = buffer.indexOf('/ByteRange', 0, 'latin1'); at >= 0; at = buffer.indexOf('/ByteRange', at + 1, 'latin1')) {
    const objectStart = buffer.lastIndexOf(' obj', at, 'latin1');
    const dictionary = decoder.decode(buffer.subarray(Math.max(objectStart, at - 512, 0), at));
    const kind = /\/SubFilter\s*\/ETSI\.RFC3161/.test(dictionary) || /\/Type\s*\/DocTimeStamp/.test(dictionary) ? 'timestamp' : 'signature';
    const match = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(decoder.decode(buffer.subarray(at, at + 80)));
    if (!match) {
      out.push({ kind, at, problem: 'malformed /ByteRange' });
      continue;
    }
    const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
    if (a !== 0 || b <= 0 || c <= b + 1 || c + d > buffer.length) {
      out.push({ kind, at, problem: 'byte range outside the file' });
      continue;
    }
    if (buffer[b] !== 0x3c || buffer[c - 1] !== 0x3e) {
      out.push({ kind, at, problem: 'byte range does not exclude exactly the /Contents string' });
      continue;
    }
    const hex = decoder.decode(buffer.subarray(b + 1, c - 1));
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) {
      out.push({ kind, at, problem: '/Contents is not a hex string' });
      continue;
    }
    out.push({ kind, at, range: [a, b, c, d], hex });
  }
  return out;
}

/** The DER inside a /Contents hex string (its zero padding cut off). */
function contentsDer(hex: string): Uint8Array {
  const contents = Buffer.from(hex, 'hex');
  return contents.subarray(0, readNode(contents, 0).end);
}

export interface DocumentTimestampCheck {
  /** Bytes covered: the file up to the end of this time-stamp's revision. */
  coveredLength: number;
  /** The token is over the covered bytes and verifies (verifyTimeStampToken). */
  ok: boolean;
  info: TimeStampInfo | null;
  problem?: string;
}

/**
 * Checks every document time-stamp of a PDF (PAdES B-LTA), oldest first: the byte range, and the
 * token over the SHA-256 of the covered bytes. Trust in the TSA is the caller's decision.
 */
export function verifyDocumentTimestamps(pdf: Uint8Array): DocumentTimestampCheck[] {
  const buffer = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  return findSignatures(buffer)
    .filter((s) => s.kind === 'timestamp')
    .map((found): DocumentTimestampCheck => {
      if (!found.range) return { coveredLength: 0, ok: false, info: null, problem: found.problem! };
      const [a, b, c, d] = found.range;
      const imprint = createHash('sha256')
        .update(buffer.subarray(a, a + b))
        .update(buffer.subarray(c, c + d))
        .digest();
      try {
        return { coveredLength: c + d, ok: true, info: verifyTimeStampToken(contentsDer(found.hex!), { imprint }) };
      } catch (error) {
        return { coveredLength: c + d, ok: false, info: null, problem: (error as Error).message };
      }
    });
}

/**
 * The newest time-stamp of a PDF: its last document time-stamp, else its signature's time-stamp
 * (B-T), else null. What re-time-stamping looks at (the TSA certificate's expiry).
 */
export function latestTimestamp(pdf: Uint8Array): TimeStampInfo | null {
  const documentStamps = verifyDocumentTimestamps(pdf).filter((t) => t.ok);
  const last = documentStamps[documentStamps.length - 1];
  if (last) return last.info;
  return verifyPdfSignature(pdf).signatureTimestamp ?? null;
}

export interface PdfSignatureCheck {
  /** The signed bytes are unchanged and the signature verifies with the embedded certificate. */
  intact: boolean;
  /** The signature covers the whole file (nothing appended after signing). */
  coversWholeFile: boolean;
  signerCertificateDer: Uint8Array | null;
  digestOk: boolean;
  signatureOk: boolean;
  /** Why a check failed, for logs and answers. */
  problem?: string;
  /**
   * The signature's time-stamp (PAdES B-T), checked over the signature value; null when absent or
   * when it does not verify (then `timestampProblem` says why). It does not change `intact`.
   */
  signatureTimestamp?: TimeStampInfo | null;
  timestampProblem?: string;
}

const notIntact = (problem: string, partial: Partial<PdfSignatureCheck> = {}): PdfSignatureCheck => ({
  intact: false,
  coversWholeFile: false,
  signerCertificateDer: null,
  digestOk: false,
  signatureOk: false,
  ...partial,
  problem,
});

/**
 * Checks the last signature of a PDF: byte ranges, the message digest over them, the signature of
 * the signed attributes with the embedded signer certificate, and the ESS certificate binding.
 * Does not decide whether the certificate is trusted: compare `signerCertificateDer` with the
 * ministry's published certificates.
 */
export function verifyPdfSignature(pdf: Uint8Array): PdfSignatureCheck {
  const buffer = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const found = findSignatures(buffer).filter((s) => s.kind === 'signature');
  const last = found[found.length - 1];
  if (!last) return notIntact('no signature');
  if (!last.range) return notIntact(last.problem!);
  const [a, b, c, d] = last.range;
  const hexText = last.hex!;
  const coversWholeFile = c + d === pdf.length;

  let cms: ReturnType<typeof parseCms>;
  try {
    cms = parseCms(contentsDer(hexText));
  } catch (error) {
    return notIntact(`unreadable signature: ${(error as Error).message}`, { coversWholeFile });
  }
  const signerCertificateDer = cms.signerCertificate;
  if (!cms.digestAlgorithm) return notIntact('unsupported digest algorithm', { coversWholeFile, signerCertificateDer });
  const digest = createHash(cms.digestAlgorithm)
    .update(buffer.subarray(a, a + b))
    .update(buffer.subarray(c, c + d))
    .digest();
  const digestOk = !!cms.messageDigest && Buffer.compare(digest, cms.messageDigest) === 0;

  let signatureOk = false;
  let problem: string | undefined;
  if (!signerCertificateDer) {
    problem = 'signer certificate not embedded';
  } else {
    try {
      const certificate = new X509Certificate(signerCertificateDer);
      signatureOk = cryptoVerify(cms.digestAlgorithm, cms.signedAttributes, certificate.publicKey, cms.signature);
      const certHash = createHash('sha256').update(signerCertificateDer).digest();
      if (signatureOk && cms.signingCertificateHashes.length && !cms.signingCertificateHashes.some((h) => Buffer.compare(h, certHash) === 0)) {
        signatureOk = false;
        problem = 'signing-certificate-v2 does not name the embedded certificate';
      }
      if (!signatureOk && !problem) problem = 'signature does not verify';
    } catch (error) {
      problem = `signature check failed: ${(error as Error).message}`;
    }
  }
  if (!digestOk && !problem) problem = 'document changed after signing';
  const intact = digestOk && signatureOk && cms.contentType === '1.2.840.113549.1.7.1';
  let signatureTimestamp: TimeStampInfo | null = null;
  let timestampProblem: string | undefined;
  if (cms.signatureTimeStampToken) {
    try {
      signatureTimestamp = verifyTimeStampToken(cms.signatureTimeStampToken, { imprint: createHash('sha256').update(cms.signature).digest() });
    } catch (error) {
      timestampProblem = (error as Error).message;
    }
  }
  return {
    intact,
    coversWholeFile,
    signerCertificateDer,
    digestOk,
    signatureOk,
    ...(intact ? {} : { problem: problem ?? 'content type is not data' }),
    signatureTimestamp,
    ...(timestampProblem ? { timestampProblem } : {}),
  };
}
