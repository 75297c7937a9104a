/**
 * Limits for parsing a PDF that is not the issuer's own (ADR 0114). pdf-lib parses every object of
 * a document when it loads it, and a few megabytes of object streams can declare a million objects
 * (about 20 s of CPU and 300 MB per load on this machine). These checks read the raw bytes once,
 * without parsing, and refuse a document before pdf-lib sees it when what it declares is too much.
 * They over-count on purpose (every direct `/N`, every `/Size`): a false refusal costs a legitimate
 * foreign PDF an "could not be analysed" answer, an under-count would cost the process.
 */

export const PDF_PARSE_LIMITS = {
  /** Objects a document may hold: indirect objects written out plus those inside object streams. */
  maxObjects: 50_000,
  /** Cross-reference entries pdf-lib may be asked to read (sum of every `/Size` and `/Index` length). */
  maxXrefEntries: 200_000,
  /** Bytes all of a document's decoded streams may add up to (object streams, page contents, attachment). */
  maxDecodedBytes: 32 * 1024 * 1024,
  /** The embedded credential is a few kilobytes: anything larger is not one of ours. */
  maxAttachmentBytes: 1024 * 1024,
  /** Wall-clock time one document may take in its worker (both loads, the QR decoding). */
  timeoutMs: 5_000,
  /** The worker's V8 heap (`resourceLimits`); decoded buffers are counted by maxDecodedBytes instead. */
  maxOldGenerationSizeMb: 96,
  maxYoungGenerationSizeMb: 16,
} as const;

export type PdfParseLimits = { [K in keyof typeof PDF_PARSE_LIMITS]: number };

export type PdfLimitReason = 'objects' | 'xref_entries' | 'decoded_bytes' | 'attachment_bytes' | 'timeout' | 'memory' | 'crashed';

/** The document was refused, or its parsing stopped, at one of the limits. */
export class PdfTooComplex extends Error {
  constructor(readonly reason: PdfLimitReason) {
    super(`PDF too complex to parse (${reason})`);
    this.name = 'PdfTooComplex';
  }
}

/** Every parser thread is busy and the queue is full: try again shortly. */
export class PdfParserBusy extends Error {
  constructor() {
    super('PDF parser busy');
    this.name = 'PdfParserBusy';
  }
}

export interface PdfComplexity {
  objects: number;
  xrefEntries: number;
}

// PDF white space, comments included (pdf-lib skips both between tokens). A comment ends at its
// line's end, so each run of characters splits one way only: no backtracking blow-up.
const WS = String.raw`(?:[\0\t\n\f\r ]|%[^\r\n]*[\r\n])+`;
// The keyword of an indirect object written out (`12 0 obj`); `endobj` is preceded by a letter.
const OBJECT = /(?<![A-Za-z])obj(?![A-Za-z0-9])/g;
// `/N 1000`: an object stream's count (ICC profiles and linearisation have one too: counted as well); or `/N 7 0 R`.
const COUNT = new RegExp(String.raw`/N${WS}(\d+)(?:${WS}(\d+)${WS}R)?`, 'g');
const SIZE = new RegExp(String.raw`/Size${WS}(\d+)(?:${WS}(\d+)${WS}R)?`, 'g');
const INDEX = new RegExp(String.raw`/Index(?:${WS})?(\[[\d\0\t\n\f\r ]*\]|.)`, 'gs');
// `12 0 obj 1000000`: an indirect number written out.
const NUMBER_OBJECT = new RegExp(String.raw`(?<![0-9])(\d+)${WS}(\d+)${WS}obj${WS}(\d+)`, 'g');
// A name with `#xx` escapes (`/#4E` is `/N` to pdf-lib).
const ESCAPED_NAME = /\/[^\0\t\n\f\r /[\]<>(){}%]*#[0-9A-Fa-f]{2}[^\0\t\n\f\r /[\]<>(){}%]*/g;

/**
 * What a PDF declares, read from its raw bytes with a few regular expressions (linear, no parsing).
 * A count given by reference (`/N 7 0 R`) is looked up among the numbers written out as objects;
 * one that is not (inside an object stream) counts as over the limit, as does an `/Index` that is
 * not a plain array of numbers.
 */
export function measurePdf(pdf: Uint8Array, limits: { maxObjects: number; maxXrefEntries: number } = PDF_PARSE_LIMITS): PdfComplexity {
  let text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  if (text.includes('#')) text = text.replace(ESCAPED_NAME, (name) => name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  let numbers: Map<string, number> | undefined;
  const value = (written: string, ref: string | undefined, over: number): number => {
    if (ref === undefined) return Number(written);
    numbers ??= new Map([...text.matchAll(NUMBER_OBJECT)].map(([, num, gen, n]) => [`${Number(num)} ${Number(gen)}`, Number(n)]));
    return numbers.get(`${Number(written)} ${Number(ref)}`) ?? over;
  };
  let objects = 0;
  for (const _ of text.matchAll(OBJECT)) objects++;
  for (const [, n, ref] of text.matchAll(COUNT)) objects += value(n!, ref, limits.maxObjects + 1);
  let xrefEntries = 0;
  for (const [, n, ref] of text.matchAll(SIZE)) xrefEntries += value(n!, ref, limits.maxXrefEntries + 1);
  for (const [, array] of text.matchAll(INDEX)) {
    if (!array!.startsWith('[')) {
      xrefEntries += limits.maxXrefEntries + 1;
      continue;
    }
    const pairs = array!
      .slice(1, -1)
      .split(/[\0\t\n\f\r ]+/)
      .filter(Boolean)
      .map(Number);
    for (let i = 1; i < pairs.length; i += 2) xrefEntries += pairs[i]!;
  }
  return { objects, xrefEntries };
}

/** Throws PdfTooComplex when the document declares more than the limits allow. */
export function assertPdfWithinLimits(pdf: Uint8Array, limits: { maxObjects: number; maxXrefEntries: number } = PDF_PARSE_LIMITS): PdfComplexity {
  const measured = measurePdf(pdf, limits);
  if (measured.objects > limits.maxObjects) throw new PdfTooComplex('objects');
  if (measured.xrefEntries > limits.maxXrefEntries) throw new PdfTooComplex('xref_entries');
  return measured;
}
