// PAdES-B-B signing (an incremental update adding the signature field and its dictionary) and
// verification of the byte ranges, message digest and CMS signature with node:crypto.
import { X509Certificate, createHash, verify as cryptoVerify, type Hash } from 'node:crypto';
import { createCms, maxCmsLength, parseCms, type Signer } from './cms.ts';
import { readNode } from './der.ts';
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
}

/** The state of a SHA-256 over a PDF's first `length` bytes. */
export interface HashedPrefix {
  length: number;
  hash: Hash;
}

interface XrefInfo {
  offsets: Map<number, number>;
  size: number;
  root: number;
  trailer: string;
  startxref: number;
}

const decoder = new TextDecoder('latin1');

function readXref(pdf: Uint8Array): XrefInfo {
  const tail = decoder.decode(pdf.subarray(Math.max(0, pdf.length - 1024)));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error('PDF: no startxref at the end of the file');
  const startxref = Number(match[1]);
  const offsets = new Map<number, number>();
  let trailer = '';
  let size = 0;
  let root = 0;
  for (let at: number | undefined = startxref; at !== undefined; ) {
    const section = decoder.decode(pdf.subarray(at, Math.min(pdf.length, at + 64)));
    if (!section.startsWith('xref')) throw new Error("PDF: cross-reference streams are not supported; sign the renderer's output");
    const end = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).indexOf('startxref', at, 'latin1');
    const text = decoder.decode(pdf.subarray(at, end));
    const [table, trailerText = ''] = text.split('trailer');
    const lines = table!.split(/\r?\n|\r/).slice(1);
    let objectNumber = 0;
    for (const line of lines) {
      const header = /^(\d+) (\d+)\s*$/.exec(line);
      if (header) {
        objectNumber = Number(header[1]);
        continue;
      }
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(line);
      if (!entry) continue;
      if (entry[3] === 'n' && !offsets.has(objectNumber)) offsets.set(objectNumber, Number(entry[1]));
      objectNumber++;
    }
    if (!trailer) {
      trailer = trailerText;
      size = Number(/\/Size (\d+)/.exec(trailerText)?.[1] ?? 0);
      root = Number(/\/Root (\d+) 0 R/.exec(trailerText)?.[1] ?? 0);
    }
    const prev = /\/Prev (\d+)/.exec(trailerText);
    at = prev ? Number(prev[1]) : undefined;
  }
  if (!size || !root) throw new Error('PDF: trailer without /Size or /Root');
  return { offsets, size, root, trailer, startxref };
}

function readObjectBody(pdf: Uint8Array, xref: XrefInfo, objectNumber: number): string {
  const offset = xref.offsets.get(objectNumber);
  if (offset === undefined) throw new Error(`PDF: object ${objectNumber} not found`);
  const end = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).indexOf('endobj', offset, 'latin1');
  const text = decoder.decode(pdf.subarray(offset, end));
  const match = new RegExp(`^${objectNumber} 0 obj\\s*([\\s\\S]*?)\\s*$`).exec(text);
  if (!match || /\bstream\b/.test(match[1]!) || !match[1]!.endsWith('>>')) throw new Error(`PDF: object ${objectNumber} is not a plain dictionary`);
  return match[1]!;
}

function addEntry(dict: string, entry: string): string {
  return `${dict.slice(0, -2).trimEnd()} ${entry} >>`;
}

const BYTE_RANGE_WIDTH = 36;

/**
 * Signs a PDF (PAdES-B-B, ETSI.CAdES.detached) by appending an incremental update: an invisible
 * signature field on the first page and the signature dictionary, whose /ByteRange covers the
 * whole resulting file. Works on PDFs with classic cross-reference tables (the renderer's output).
 */
export async function signPdf(pdf: Uint8Array, signer: Signer, options: SignOptions = {}): Promise<Uint8Array> {
  const xref = readXref(pdf);
  const catalog = readObjectBody(pdf, xref, xref.root);
  if (catalog.includes('/AcroForm')) throw new Error('PDF: already has a form; signing it is not supported');
  const pagesNumber = Number(/\/Pages (\d+) 0 R/.exec(catalog)?.[1]);
  const pages = readObjectBody(pdf, xref, pagesNumber);
  const pageNumber = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(pages)?.[1]);
  const page = readObjectBody(pdf, xref, pageNumber);
  if (page.includes('/Annots')) throw new Error('PDF: page annotations are not supported');

  const fieldNumber = xref.size;
  const signatureNumber = xref.size + 1;
  const contentsLength = maxCmsLength(signer) + 16;
  const now = options.signingTime ?? new Date();
  const extra = [options.reason ? `/Reason ${pdfTextString(options.reason)}` : '', options.location ? `/Location ${pdfTextString(options.location)}` : '']
    .filter(Boolean)
    .join(' ');

  const needsNewline = pdf[pdf.length - 1] !== 0x0a;
  let offset = pdf.length + (needsNewline ? 1 : 0);
  const pieces: string[] = needsNewline ? ['\n'] : [];
  const newOffsets = new Map<number, number>();
  const addObject = (objectNumber: number, body: string) => {
    const text = `${objectNumber} 0 obj\n${body}\nendobj\n`;
    newOffsets.set(objectNumber, offset);
    pieces.push(text);
    offset += text.length;
  };
  addObject(xref.root, addEntry(catalog, `/AcroForm << /Fields [${ref(fieldNumber)}] /SigFlags 3 >>`));
  addObject(pageNumber, addEntry(page, `/Annots [${ref(fieldNumber)}]`));
  addObject(fieldNumber, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /F 132 /Rect [0 0 0 0] /P ${ref(pageNumber)} /V ${ref(signatureNumber)} >>`);

  // The signature dictionary: /ByteRange placeholder of fixed width, /Contents last.
  const sigHead = `${signatureNumber} 0 obj\n<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M ${pdfDate(now)}${extra ? ` ${extra}` : ''} /ByteRange `;
  newOffsets.set(signatureNumber, offset);
  const byteRangeAt = offset + sigHead.length;
  const contentsAt = byteRangeAt + BYTE_RANGE_WIDTH + ' /Contents '.length;
  const sigText = `${sigHead}${' '.repeat(BYTE_RANGE_WIDTH)} /Contents <${'0'.repeat(contentsLength * 2)}> >>\nendobj\n`;
  pieces.push(sigText);
  offset += sigText.length;

  // Cross-reference section for the new and changed objects.
  const numbers = [...newOffsets.keys()].sort((a, b) => a - b);
  const xrefLines: string[] = ['xref'];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    xrefLines.push(`${numbers[i]} ${j - i + 1}`);
    for (let k = i; k <= j; k++) xrefLines.push(`${String(newOffsets.get(numbers[k]!)).padStart(10, '0')} 00000 n `);
    i = j + 1;
  }
  const info = /\/Info (\d+) 0 R/.exec(xref.trailer)?.[1];
  const id = /\/ID\s*\[[^\]]*\]/.exec(xref.trailer)?.[0];
  const trailer = `<< /Size ${xref.size + 2} /Root ${ref(xref.root)}${info ? ` /Info ${ref(Number(info))}` : ''}${id ? ` ${id}` : ''} /Prev ${xref.startxref} >>`;
  pieces.push(`${xrefLines.join('\n')}\ntrailer\n${trailer}\nstartxref\n${offset}\n%%EOF\n`);

  const update = latin1(pieces.join(''));
  const out = new Uint8Array(pdf.length + update.length);
  out.set(pdf, 0);
  out.set(update, pdf.length);

  const gapStart = contentsAt;
  const gapEnd = contentsAt + 2 + contentsLength * 2;
  const byteRange = `[0 ${gapStart} ${gapEnd} ${out.length - gapEnd}]`;
  if (byteRange.length > BYTE_RANGE_WIDTH) throw new Error('PDF too large for the byte range placeholder');
  out.set(latin1(byteRange.padEnd(BYTE_RANGE_WIDTH, ' ')), byteRangeAt);

  const known = options.hashedPrefix && options.hashedPrefix.length <= gapStart ? options.hashedPrefix : null;
  const digest = (known ? known.hash.copy().update(out.subarray(known.length, gapStart)) : createHash('sha256').update(out.subarray(0, gapStart)))
    .update(out.subarray(gapEnd))
    .digest();
  const cms = await createCms(signer, digest);
  if (cms.length > contentsLength) throw new Error('CMS larger than its reserved space');
  out.set(latin1(Buffer.from(cms).toString('hex').toUpperCase()), gapStart + 1);
  return out;
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
  const at = buffer.lastIndexOf('/ByteRange', undefined, 'latin1');
  if (at < 0) return notIntact('no signature');
  const match = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(decoder.decode(buffer.subarray(at, at + 80)));
  if (!match) return notIntact('malformed /ByteRange');
  const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b + 1 || c + d > pdf.length) return notIntact('byte range outside the file');
  if (buffer[b] !== 0x3c || buffer[c - 1] !== 0x3e) return notIntact('byte range does not exclude exactly the /Contents string');
  const hexText = decoder.decode(buffer.subarray(b + 1, c - 1));
  if (!/^[0-9a-fA-F]*$/.test(hexText) || hexText.length % 2) return notIntact('/Contents is not a hex string');
  const coversWholeFile = c + d === pdf.length;

  let cms: ReturnType<typeof parseCms>;
  try {
    const contents = Buffer.from(hexText, 'hex');
    const outer = readNode(contents, 0);
    cms = parseCms(contents.subarray(0, outer.end));
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
  return { intact, coversWholeFile, signerCertificateDer, digestOk, signatureOk, ...(intact ? {} : { problem: problem ?? 'content type is not data' }) };
}
