// Re-time-stamping stored diplomas (ADR 0135): due ones get a new DSS and document time-stamp as
// an incremental update, checked by OpenSSL and pdfsig; bounded per run, idempotent, resumable
// after a crash between the file and its row, and a stored file that is not the recorded one is
// left alone.
import { extendToLongTerm, verifyDocumentTimestamps, verifyPdfSignature } from '@sceau/pdf';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diplomas } from '../../db/schema.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { validationData } from './timestamping-service.ts';

let ctx: ChainTestContext;
let services: Services;
let ids: string[];

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const row = async (id: string) => (await ctx.db.select().from(diplomas).where(eq(diplomas.id, id)))[0]!;
const stored = async (id: string) => new Uint8Array((await services.storage.get((await row(id)).pdfKey!))!);

beforeAll(async () => {
  ctx = await createChainTestApp();
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  const batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  ids = (await ctx.db.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.id)).map((r) => r.id);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('re-time-stamping', () => {
  it('has nothing to do while every last time-stamp outlives the margin', async () => {
    expect(await services.retimestamper!.run()).toEqual({ renewed: 0, skipped: 0, more: false });
  });

  it('renews the due diplomas, the soonest first, at most the run limit; a second run finishes, a third does nothing', async () => {
    const due = ids.slice(0, 3);
    const soon = new Date(Date.now() + 86_400_000);
    // One from before time-stamps (no expiry recorded) and two whose TSA certificate ends tomorrow.
    await ctx.db.update(diplomas).set({ timestampExpiresAt: null }).where(eq(diplomas.id, due[0]!));
    await ctx.db
      .update(diplomas)
      .set({ timestampExpiresAt: soon })
      .where(inArray(diplomas.id, due.slice(1)));
    const before = await Promise.all(due.map(stored));

    expect(await services.retimestamper!.run(new Date(), 2)).toEqual({ renewed: 2, skipped: 0, more: true });
    expect(await services.retimestamper!.run(new Date(), 2)).toEqual({ renewed: 1, skipped: 0, more: false });
    expect(await services.retimestamper!.run(new Date(), 2)).toEqual({ renewed: 0, skipped: 0, more: false });

    for (const [i, id] of due.entries()) {
      const pdf = await stored(id);
      const record = await row(id);
      // Appended to, never rewritten; the row describes the new file.
      expect(Buffer.from(pdf.subarray(0, before[i]!.length)).equals(Buffer.from(before[i]!))).toBe(true);
      expect(record).toMatchObject({ pdfSha256: sha(pdf), pdfBytes: pdf.length });
      expect(record.timestampExpiresAt!.getTime()).toBeGreaterThan(Date.now() + ctx.config.timestamping.retimestampMarginDays * 86_400_000);
      const stamps = verifyDocumentTimestamps(pdf);
      expect(stamps.map((s) => s.ok)).toEqual([true, true]);
      expect(stamps[1]!.coveredLength).toBe(pdf.length);
      expect(verifyPdfSignature(pdf)).toMatchObject({ intact: true });
    }
    // Others untouched.
    expect(verifyDocumentTimestamps(await stored(ids[5]!))).toHaveLength(1);
  });

  it('OpenSSL verifies both document time-stamps of a renewed diploma, and pdfsig its signature', async () => {
    const pdf = await stored(ids[0]!);
    const file = path.join(ctx.dataDir, 'renewed.pdf');
    await writeFile(file, pdf);
    const ca = path.join(ctx.config.keys.dir, 'development-ca.pem');
    const sig = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    expect(sig).toContain('Signature is Valid.');
    expect(sig).toMatch(/DocTimeStamp1[\s\S]*DocTimeStamp2/);
    expect(spawnSync('pdfsig', ['-nocert', '-dump', file], { encoding: 'utf8', cwd: ctx.dataDir }).stdout).toContain('Dumping Signatures: 3');
    const ranges = [
      ...Buffer.from(pdf)
        .toString('latin1')
        .matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g),
    ];
    for (const n of [1, 2]) {
      const [a, b, c, d] = ranges[n]!.slice(1).map(Number) as [number, number, number, number];
      const covered = path.join(ctx.dataDir, `covered${n}.bin`);
      await writeFile(covered, Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]));
      const out = spawnSync('openssl', ['ts', '-verify', '-data', covered, '-in', `${file}.sig${n}`, '-token_in', '-CAfile', ca], { encoding: 'utf8' });
      expect(`${out.stdout}${out.stderr}`).toContain('Verification: OK');
    }
  });

  it('resumes a renewal whose file was written but whose row was not (a crash), and leaves a file that is not the recorded one', async () => {
    const [crashed, tampered] = [ids[6]!, ids[7]!];
    // The file renewed, the row not: what a crash between the two leaves.
    const setup = await services.timestamping!.setup();
    const half = await extendToLongTerm(await stored(crashed), validationData(setup), await services.timestamping!.timestamper());
    await services.storage.put((await row(crashed)).pdfKey!, Buffer.from(half));
    // A file changed by someone else.
    const other = Buffer.from(await stored(tampered));
    other[other.length - 40]! ^= 1;
    await services.storage.put((await row(tampered)).pdfKey!, other);
    await ctx.db
      .update(diplomas)
      .set({ timestampExpiresAt: null })
      .where(inArray(diplomas.id, [crashed, tampered]));

    expect(await services.retimestamper!.run()).toEqual({ renewed: 1, skipped: 1, more: false });
    const renewed = await stored(crashed);
    expect(verifyDocumentTimestamps(renewed).map((s) => s.ok)).toEqual([true, true, true]);
    expect((await row(crashed)).pdfSha256).toBe(sha(renewed));
    expect(Buffer.from(await stored(tampered)).equals(other)).toBe(true);
    expect((await row(tampered)).timestampExpiresAt).toBeNull();
  });
});
