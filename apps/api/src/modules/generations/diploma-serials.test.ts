import { isSerial, verifyDocument } from '@sceau/credential';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { signIn } from '../../../test/helpers.ts';
import { diplomaSerialCounters, diplomas, examSessions, generations } from '../../db/schema.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { reserveSerials, SERIAL_PREFIXES } from './diploma-serials.ts';
import { BatchDataError } from './issuing-deps.ts';

let ctx: ChainTestContext;
let services: Services;
let batchId: number;

beforeAll(async () => {
  ctx = await createChainTestApp();
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain } });
  batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const numberOf = (serial: string) => Number(serial.split('-')[2]);

describe('diploma serials', () => {
  it('gives each diploma of a batch its own serial, in issuing order, signed in its record and printed on its PDF', async () => {
    const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
    const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.id, batch!.sessionId));
    const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.itemId);
    expect(rows).toHaveLength(12);
    const serials = rows.map((row) => row.serial!);
    for (const serial of serials) {
      expect(isSerial(serial), serial).toBe(true);
      expect(serial.startsWith(`${SERIAL_PREFIXES[batch!.type]}-${session!.year}-`)).toBe(true);
    }
    // Consecutive numbers in the order the candidates were issued.
    const numbers = serials.map(numberOf);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    for (const row of rows) {
      const document = row.credential as { version: string; record: { serial?: string } };
      expect(document.version).toBe('sceau-credential/2');
      expect(document.record.serial).toBe(row.serial);
      expect(verifyDocument(row.credential)).toMatchObject({ integrity: 'ok' });
    }
    const first = rows[0]!;
    const file = path.join(ctx.dataDir, 'serial.pdf');
    await writeFile(file, (await services.storage.get(first.pdfKey!))!);
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(`N° ${first.serial}`);
  });

  it("finds a diploma on its batch's page by its serial, however it is typed", async () => {
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    const rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).orderBy(diplomas.itemId);
    const target = rows[5]!;
    for (const typed of [target.serial!, target.serial!.replaceAll('-', '').toLowerCase(), target.serial!.replaceAll('-', ' ')]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}?page=1&search=${encodeURIComponent(typed)}`, headers: root });
      expect(res.statusCode, typed).toBe(200);
      const items = res.json().data.items as { id: number; diploma: { id: string; serial: string } }[];
      expect(
        items.map((item) => item.diploma.serial),
        typed,
      ).toEqual([target.serial]);
      expect(items[0]!.diploma.id).toBe(target.id);
    }
    // A mistyped digit is not a serial (its check digit disagrees): it finds nothing rather than another diploma.
    const digits = target.serial!.split('-');
    const typo = `${digits[0]}-${digits[1]}-${digits[2]!.slice(0, 6)}${(Number(digits[2]!.at(-1)) + 1) % 10}-${digits[3]}`;
    const res = await ctx.app.inject({ method: 'GET', url: `/api/generations/${batchId}?page=1&search=${encodeURIComponent(typo)}`, headers: root });
    expect(res.json().data.items).toEqual([]);
  });

  it('reserves disjoint blocks when batches ask at the same time, without waiting on a transaction', async () => {
    const blocks = await Promise.all(Array.from({ length: 8 }, () => reserveSerials(ctx.db, 'attestation_reussite', 2031, 25)));
    const all = blocks.flat();
    expect(new Set(all).size).toBe(200);
    for (const block of blocks) {
      const numbers = block.map(numberOf);
      expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    }
    expect(all.every((serial) => serial.startsWith('AR-2031-'))).toBe(true);
    const [counter] = await ctx.db
      .select()
      .from(diplomaSerialCounters)
      .where(and(eq(diplomaSerialCounters.prefix, 'AR'), eq(diplomaSerialCounters.year, 2031)));
    expect(counter!.lastNumber).toBe(200);
    expect(await reserveSerials(ctx.db, 'attestation_reussite', 2031, 0)).toEqual([]);
  });

  it('refuses to go past the seven digits of a year, naming the kind and year', async () => {
    await ctx.db.insert(diplomaSerialCounters).values({ prefix: 'DE', year: 2032, lastNumber: 9_999_989 });
    expect((await reserveSerials(ctx.db, 'diplome_etat', 2032, 10)).at(-1)).toMatch(/^DE-2032-9999999-\d$/);
    const error = await reserveSerials(ctx.db, 'diplome_etat', 2032, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchDataError);
    expect((error as Error).message).toContain('DE 2032');
  });

  it('keeps serials unique in the database too', async () => {
    const [one] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId)).limit(1);
    const [other] = await ctx.db
      .select()
      .from(diplomas)
      .where(and(eq(diplomas.generationId, batchId)))
      .offset(1)
      .limit(1);
    await expect(ctx.db.update(diplomas).set({ serial: one!.serial }).where(eq(diplomas.id, other!.id))).rejects.toThrow();
  });
});
