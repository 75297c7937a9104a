/**
 * A parser thread of pdf-parse-pool.ts: checks what a PDF declares (pdf-limits.ts), then parses it
 * with pdf-lib while counting every byte its stream filters decode. The pool bounds the rest: the
 * thread's heap (`resourceLimits`) and its time (terminated past the deadline).
 */
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { assertPdfWithinLimits, PdfTooComplex, type PdfLimitReason } from './pdf-limits.ts';
import { parsePdfParts } from './pdf-parts.ts';

export interface ParseRequest {
  id: number;
  pdf: Uint8Array;
  attachmentName: string;
  limits: { maxObjects: number; maxXrefEntries: number; maxDecodedBytes: number; maxAttachmentBytes: number };
}
export type ParseAnswer = { id: number; ok: true; attachment: Uint8Array | null; codes: string[] } | { id: number; ok: false; reason: PdfLimitReason };

// Every filter pdf-lib decodes (Flate, LZW, ASCII85, ASCIIHex, RunLength) grows its output through
// DecodeStream#ensureBuffer, and those buffers live outside the V8 heap that `resourceLimits`
// bounds. pdf-lib has no option for it, so this thread counts the growth there and stops a
// document past its budget. pdf-lib resolves to its CommonJS build (no "exports" map), the module
// required here. pdf-lib catches some decoding errors itself (a page's contents), hence the flag.
const require = createRequire(import.meta.url);
const { default: DecodeStream } = require('pdf-lib/cjs/core/streams/DecodeStream.js') as { default: { prototype: { ensureBuffer(requested: number): Uint8Array } } };
const budget = { limit: Infinity, used: 0, over: false };
const grown = new WeakMap<object, number>();
const ensureBuffer = DecodeStream.prototype.ensureBuffer;
DecodeStream.prototype.ensureBuffer = function (this: object, requested: number) {
  const before = grown.get(this) ?? 0;
  if (requested > before) {
    budget.used += requested - before;
    grown.set(this, requested);
    if (budget.used > budget.limit) {
      budget.over = true;
      throw new PdfTooComplex('decoded_bytes');
    }
  }
  return ensureBuffer.call(this, requested);
};

async function parse({ pdf, attachmentName, limits }: ParseRequest): Promise<{ attachment: Uint8Array | null; codes: string[] }> {
  assertPdfWithinLimits(pdf, limits);
  Object.assign(budget, { limit: limits.maxDecodedBytes, used: 0, over: false });
  const parts = await parsePdfParts(pdf, attachmentName);
  if (budget.over) throw new PdfTooComplex('decoded_bytes');
  if (parts.attachment && parts.attachment.byteLength > limits.maxAttachmentBytes) throw new PdfTooComplex('attachment_bytes');
  // A copy of its own, to transfer (a decoded stream may be a view of a larger buffer).
  return { attachment: parts.attachment ? parts.attachment.slice() : null, codes: parts.codes };
}

parentPort!.on('message', (request: ParseRequest) => {
  parse(request).then(
    ({ attachment, codes }) => parentPort!.postMessage({ id: request.id, ok: true, attachment, codes } satisfies ParseAnswer, attachment ? [attachment.buffer as ArrayBuffer] : []),
    (error: unknown) => parentPort!.postMessage({ id: request.id, ok: false, reason: error instanceof PdfTooComplex ? error.reason : 'crashed' } satisfies ParseAnswer),
  );
});

// Modules loaded: the pool starts a document's deadline from here.
parentPort!.postMessage({ ready: true });
