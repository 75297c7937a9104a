// PAdES-B-B signing (an incremental update adding the signature field and its dictionary) and
// verification of the byte ranges, message digest and CMS signature with node:crypto.
import { X509Certificate, createHash, verify as cryptoVerify, type Hash } from 'node:crypto';
import { createCms, maxCmsLength, parseCms, type Signer } from './cms.ts';
import { readNode } from './der.ts';
import { IncrementalUpdate, addDictionaryEntry } from './incremental.ts';
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
  const pagesNumber = Number(/\/Pages (\d+) 0 R/.exec(catalog)?.[1]);
  const pages = update.dictionary(pagesNumber);
  const pageNumber = Number(/\/Kids\s*\[\s*(\d+) 0 R/.exec(pages)?.[1]);
  const page = update.dictionary(pageNumber);
  if (page.includes('/Annots')) throw new Error('PDF: page annotations are not supported');

  const fieldNumber = update.allocate();
  const signatureNumber = update.allocate();
  const contentsLength = maxCmsLength(signer) + 16;
  const now = options.signingTime ?? new Date();
  const extra = [options.reason ? `/Reason ${pdfTextString(options.reason)}` : '', options.location ? `/Location ${pdfTextString(options.location)}` : '']
    .filter(Boolean)
    .join(' ');

  update.setObject(root, addDictionaryEntry(catalog, `/AcroForm << /Fields [${ref(fieldNumber)}] /SigFlags 3 >>`));
  update.setObject(pageNumber, addDictionaryEntry(page, `/Annots [${ref(fieldNumber)}]`));
  update.setObject(fieldNumber, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /F 132 /Rect [0 0 0 0] /P ${ref(pageNumber)} /V ${ref(signatureNumber)} >>`);
  // The signature dictionary: /ByteRange placeholder of fixed width, /Contents last.
  const sigHead = `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M ${pdfDate(now)}${extra ? ` ${extra}` : ''} /ByteRange `;
  update.setObject(signatureNumber, `${sigHead}${' '.repeat(BYTE_RANGE_WIDTH)} /Contents <${'0'.repeat(contentsLength * 2)}> >>`);
  const { pdf: out, objects } = update.finish();

  const byteRangeAt = objects.get(signatureNumber)!.bodyOffset + sigHead.length;
  const gapStart = byteRangeAt + BYTE_RANGE_WIDTH + ' /Contents '.length;
  const gapEnd = gapStart + 2 + contentsLength * 2;
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
