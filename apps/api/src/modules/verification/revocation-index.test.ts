// The set of revoked hashes each API process keeps (ADR 0102), on a real chain and database: filled
// at start from the registry's past events, kept by its new ones and by the other processes'
// notifications, and never trusted when it is not current.
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas, generations } from '../../db/schema.ts';
import { Invalidations } from '../../jobs/invalidations.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';

const log = pino({ level: 'silent' });
let ctx: ChainTestContext;
let chain: OpenChain;
let keys: MinistryKeys;
/** The process that revokes (its job wrote the revocation). */
let a: Services;
let rows: (typeof diplomas.$inferSelect)[];
let root: string;
const stops: Array<() => unknown> = [];

/** Another API process: its own services (answers, chain reads, revocation set) and app, the same database and chain. */
async function anotherProcess(): Promise<{ services: Services; app: App }> {
  const services = createServices(ctx.db, ctx.config, { identity: { keys, chain } });
  const app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  stops.push(() => app.close());
  return { services, app };
}

const verdictOf = async (app: App, id: string) => (await app.inject({ method: 'GET', url: `/api/verify/${id}` })).json().data;

async function untilCurrent(services: Services) {
  await vi.waitFor(() => expect(services.verification!.revocationStatus().current).toBe(true), { timeout: 20_000, interval: 50 });
}

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'http://diplomes.test' });
  ({ chain, keys } = ctx);
  a = createServices(ctx.db, ctx.config, { identity: { keys, chain } });
  const batchId = await seedDemoBatch(ctx.db, a.storage, a.issuing!);
  rows = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, batchId));
  const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
  root = batch!.merkleRoot!;
}, 120_000);
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await ctx?.close();
});

describe('revocation index', () => {
  it('fills itself at start from the past events; a first look-up then reads no revocation status on the chain', async () => {
    // Revoked before the process starts: only the registry's past events can tell it.
    await chain.registry.revoke(`0x${rows[0]!.targetHash}`, 'Fraude constatée');
    const b = await anotherProcess();
    expect(b.services.verification!.revocationStatus()).toMatchObject({ current: false, scannedTo: null });
    stops.push(b.services.verification!.watchRevocations());
    await untilCurrent(b.services);
    expect(b.services.verification!.revocationStatus().size).toBe(1);
    expect(chain.deploymentBlock).toBeGreaterThan(0);

    const revokedReads = vi.spyOn(chain.registry, 'isRevoked');
    try {
      const revoked = await verdictOf(b.app, rows[0]!.id);
      expect(revoked.verdict).toBe('revoked');
      expect(revoked.checks.find((c: { name: string }) => c.name === 'not_revoked')).toMatchObject({ code: 'diploma_revoked', details: { reason: 'Fraude constatée' } });
      expect((await verdictOf(b.app, rows[1]!.id)).verdict).toBe('authentic');
      expect((await verdictOf(b.app, rows[2]!.id)).verdict).toBe('authentic');
      // Neither the diplomas' nor the batch root's revocation was read on the chain.
      expect(revokedReads).not.toHaveBeenCalled();
    } finally {
      revokedReads.mockRestore();
    }
  });

  it('a revocation made by another process reaches this one by the contract event alone (cached answer, chain reads and text cleared)', async () => {
    const b = await anotherProcess();
    stops.push(b.services.verification!.watchRevocations());
    await untilCurrent(b.services);
    const target = rows[3]!;
    expect((await verdictOf(b.app, target.id)).verdict).toBe('authentic');
    expect((await verdictOf(b.app, target.id)).verdict).toBe('authentic'); // now from the cache
    const invalidate = vi.spyOn(b.services.verification!, 'invalidate');
    // Process A writes the revocation (as its job does) and clears its own answers; B is not told.
    await chain.registry.revoke(`0x${target.targetHash}`, 'Diplôme obtenu par fraude');
    a.verification!.invalidate(target.targetHash);
    await vi.waitFor(async () => expect((await verdictOf(b.app, target.id)).verdict).toBe('revoked'), { timeout: 10_000, interval: 100 });
    expect(invalidate).not.toHaveBeenCalled();
    invalidate.mockRestore();
  });

  it('a notification from the process that revoked is answered from the chain before this one polls the event; a set left behind is not trusted', async () => {
    const b = await anotherProcess();
    const stopWatching = b.services.verification!.watchRevocations();
    await untilCurrent(b.services);
    const target = rows[5]!;
    expect((await verdictOf(b.app, target.id)).verdict).toBe('authentic');
    // B's watcher stops: only the notification can tell it now, and its set is still current (within its lag).
    stopWatching();
    const busA = new Invalidations(ctx.databaseUrl, log);
    const busB = new Invalidations(ctx.databaseUrl, log);
    const pool = new pg.Pool({ connectionString: ctx.databaseUrl, max: 1 });
    stops.push(
      () => busA.stop(),
      () => busB.stop(),
      () => pool.end(),
    );
    const seen: string[] = [];
    await busA.start(() => {});
    await busB.start((hash) => {
      seen.push(hash);
      b.services.verification!.invalidate(hash);
    });
    const size = b.services.verification!.revocationStatus().size;
    await chain.registry.revoke(`0x${target.targetHash}`, 'Fraude');
    await busA.publish(pool, target.targetHash);
    await vi.waitFor(() => expect(seen).toContain(target.targetHash), { timeout: 5_000, interval: 20 });
    expect(b.services.verification!.revocationStatus()).toMatchObject({ current: true, size, suspects: 1 });
    expect((await verdictOf(b.app, target.id)).verdict).toBe('revoked');

    // Left behind (no poll for longer than its lag), the set answers nothing: the chain is read.
    await vi.waitFor(() => expect(b.services.verification!.revocationStatus().current).toBe(false), { timeout: 10_000, interval: 100 });
    const revokedReads = vi.spyOn(chain.registry, 'isRevoked');
    try {
      expect((await verdictOf(b.app, rows[6]!.id)).verdict).toBe('authentic');
      expect(revokedReads.mock.calls.map(([hash]) => hash).sort()).toEqual([`0x${root}`, `0x${rows[6]!.targetHash}`].sort());
    } finally {
      revokedReads.mockRestore();
    }
  });

  it('a whole batch revoked on the contract (its root) reaches a process that started before it', async () => {
    const b = await anotherProcess();
    stops.push(b.services.verification!.watchRevocations());
    await untilCurrent(b.services);
    expect((await verdictOf(b.app, rows[7]!.id)).verdict).toBe('authentic');
    await chain.registry.revoke(`0x${root}`, 'Session annulée');
    await vi.waitFor(
      async () => {
        const data = await verdictOf(b.app, rows[7]!.id);
        expect(data.checks.find((c: { name: string }) => c.name === 'not_revoked').code).toBe('batch_revoked');
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('with the chain unreachable, once the set is behind, a first look-up could not be fully checked (never passed from a stale set)', async () => {
    const b = await anotherProcess();
    stops.push(b.services.verification!.watchRevocations());
    await untilCurrent(b.services);
    expect((await verdictOf(b.app, rows[8]!.id)).verdict).toBe('revoked'); // the batch root's anchoring is now cached
    await chain.local!.stop();
    await vi.waitFor(() => expect(b.services.verification!.revocationStatus().current).toBe(false), { timeout: 15_000, interval: 100 });
    const data = await verdictOf(b.app, rows[9]!.id);
    expect(data.verdict).toBe('incomplete');
    expect(data.checks.find((c: { name: string }) => c.name === 'not_revoked')).toMatchObject({ status: 'not-checked', code: 'chain_unreachable' });
  });
});
