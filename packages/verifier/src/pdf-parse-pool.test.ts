import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfWithInflatingContents, pdfWithObjects } from './hostile-pdfs.ts';
import { measurePdf, PdfParserBusy, PdfTooComplex } from './pdf-limits.ts';
import { createPdfParsePool, type PdfParsePool } from './pdf-parse-pool.ts';
import { parsePdfParts } from './pdf-parts.ts';
import { createMinistryKeys, createPdfFactory, issueBatch, issuerFor, type MinistryKeys } from './test-support.ts';

let pool: PdfParsePool;
let stranger: MinistryKeys;
let foreign: Uint8Array;
const millionObjects = pdfWithObjects(1_000_000);

beforeAll(async () => {
  pool = createPdfParsePool();
  stranger = await createMinistryKeys('Faussaire');
  const batch = await issueBatch(issuerFor({ chainId: 72328, address: `0x${'11'.repeat(20)}` }), stranger.es256, 1);
  foreign = await (await createPdfFactory(stranger.pdfSigner)).render(batch.documents[0]!, batch.qr[0]!);
}, 60_000);
afterAll(async () => {
  await pool?.close();
});

/** Largest delay of a 10 ms timer on this event loop while `work` runs, and the process's largest RSS growth. */
async function watch<T>(work: () => Promise<T>): Promise<{ outcome: T | Error; lagMs: number; rssGrowthMb: number; ms: number }> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  let lagMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last - 10);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  const outcome = await work().catch((error: Error) => error);
  const ms = performance.now() - started;
  clearInterval(timer);
  return { outcome, lagMs, rssGrowthMb: (peak - rss0) / 1024 / 1024, ms };
}

describe('what a PDF declares', () => {
  it('counts objects written out and inside object streams, by reference too, with name escapes', () => {
    expect(millionObjects.length).toBeLessThan(5 * 1024 * 1024);
    expect(measurePdf(millionObjects).objects).toBeGreaterThanOrEqual(1_000_000);
    const text = (s: string) => Buffer.from(s, 'latin1');
    expect(measurePdf(text('1 0 obj\n<< /Type /ObjStm /#4E 70000 >>\nendobj\n')).objects).toBe(70_001);
    expect(measurePdf(text('1 0 obj << /N 7 0 R >> endobj 7 0 obj 90000 endobj')).objects).toBe(90_002);
    expect(measurePdf(text('1 0 obj << /N 7 0 R >> endobj')).objects).toBeGreaterThan(50_000);
    expect(measurePdf(text('<< /Type /XRef /Size 10 /Index [0 5 100 300000] >>')).xrefEntries).toBe(300_015);
    expect(measurePdf(text('<< /Type /XRef /Index 4 0 R >>')).xrefEntries).toBeGreaterThan(200_000);
  });

  it("leaves a diploma PDF and pdf-lib's own output far within the limits", async () => {
    expect(measurePdf(foreign).objects).toBeLessThan(200);
    const resaved = await (await PDFDocument.load(foreign)).save({ useObjectStreams: true });
    expect(measurePdf(resaved).objects).toBeLessThan(400);
  });
});

describe('the PDF parser threads', () => {
  it('give the same parts as the in-process parser', async () => {
    const inProcess = await parsePdfParts(foreign, 'credential.json');
    const threaded = await pool.parse(foreign, 'credential.json');
    expect(threaded.codes).toEqual(inProcess.codes);
    expect(threaded.codes).toHaveLength(2);
    expect(Buffer.from(threaded.attachment!)).toEqual(Buffer.from(inProcess.attachment!));
  }, 60_000);

  it('refuse a million objects before parsing, quickly, without blocking this event loop or growing its memory', async () => {
    const { outcome, lagMs, rssGrowthMb, ms } = await watch(() => pool.parse(millionObjects, 'credential.json'));
    expect(outcome).toBeInstanceOf(PdfTooComplex);
    expect((outcome as PdfTooComplex).reason).toBe('objects');
    // In-process, pdf-lib took ~20 s and ~300 MB per load on this document (ADR 0114). Generous bounds.
    expect(ms).toBeLessThan(10_000);
    expect(rssGrowthMb).toBeLessThan(150);
    expect(lagMs).toBeLessThan(1_000);
  }, 60_000);

  it('stop counting decoded bytes past the budget (a deflate bomb in the page contents)', async () => {
    const bomb = pdfWithInflatingContents(200 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { outcome, rssGrowthMb } = await watch(() => pool.parse(bomb, 'credential.json'));
    expect((outcome as PdfTooComplex).reason).toBe('decoded_bytes');
    expect(rssGrowthMb).toBeLessThan(150);
  }, 60_000);

  it('terminate a thread past its deadline or its heap, and start another for the next document', async () => {
    // Within the object count, but the limits are set low enough that parsing cannot finish.
    const heavy = pdfWithObjects(45_000);
    const slow = createPdfParsePool({ limits: { timeoutMs: 50 } });
    const small = createPdfParsePool({ limits: { maxOldGenerationSizeMb: 24, timeoutMs: 60_000 } });
    try {
      const late = await slow.parse(heavy, 'credential.json').catch((error: Error) => error);
      expect((late as PdfTooComplex).reason).toBe('timeout');
      expect(slow.stats().stopped).toBe(1);
      const full = await small.parse(pdfWithObjects(45_000, 45_000), 'credential.json').catch((error: Error) => error);
      expect((full as PdfTooComplex).reason).toBe('memory');
      expect(small.stats().stopped).toBe(1);
      // A new thread answers the next document.
      expect((await small.parse(foreign, 'credential.json')).codes).toHaveLength(2);
    } finally {
      await Promise.all([slow.close(), small.close()]);
    }
  }, 120_000);

  it('stop a thread left idle, and start one again for the next document', async () => {
    const brief = createPdfParsePool({ idleMs: 50 });
    try {
      expect((await brief.parse(foreign, 'credential.json')).codes).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(brief.stats().threads).toBe(0);
      expect((await brief.parse(foreign, 'credential.json')).codes).toHaveLength(2);
    } finally {
      await brief.close();
    }
  }, 60_000);

  it('refuse with PdfParserBusy when every thread is busy and the queue is full', async () => {
    const tiny = createPdfParsePool({ maxQueue: 1 });
    try {
      const answers = await Promise.all([0, 1, 2].map(() => tiny.parse(foreign, 'credential.json').catch((error: Error) => error)));
      expect(answers.filter((a) => a instanceof PdfParserBusy)).toHaveLength(1);
      expect(answers.filter((a) => !(a instanceof Error))).toHaveLength(2);
    } finally {
      await tiny.close();
    }
  }, 60_000);
});
