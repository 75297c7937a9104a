import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas } from '../../db/schema.ts';
import { createServices, type Services } from '../../services.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { FAKE_PDF, FAKE_PHOTO, insertDiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';

let ctx: TestContext;
let services: Services;
let app: App;

beforeAll(async () => {
  ctx = await createTestApp();
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

const metrics = async (on: App) => (await on.inject({ method: 'GET', url: '/api/metrics' })).json().data.data as { documents: number; downloads: number };
const downloadsOf = async (id: string) => (await ctx.db.select({ n: diplomas.downloads }).from(diplomas).where(eq(diplomas.id, id)))[0]!.n;

describe('public diploma files', () => {
  it("downloads a published diploma's PDF, counted once per address into the public downloads counter", async () => {
    const diploma = await insertDiplomaFixture(ctx.db, services.storage, '20260000000002');
    const before = await metrics(ctx.app);

    const res = await app.inject({ method: 'GET', url: `/api/verify/${diploma.id}/pdf`, remoteAddress: '198.51.100.7' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="diplome-${diploma.id}.pdf"`);
    expect(res.rawPayload.equals(FAKE_PDF)).toBe(true);
    // A reload from the same address, then another address.
    expect((await app.inject({ method: 'GET', url: `/api/verify/${diploma.id}/pdf`, remoteAddress: '198.51.100.7' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/verify/${diploma.id}/pdf`, remoteAddress: '203.0.113.9' })).statusCode).toBe(200);

    // Counted in memory, written in one statement.
    expect(await downloadsOf(diploma.id)).toBe(0);
    await services.downloads.flush();
    expect(await downloadsOf(diploma.id)).toBe(2);
    // Read by `app` for the first time (the counters are kept a minute once read).
    expect((await metrics(app)).downloads).toBe(before.downloads + 2);
  });

  it('writes the pending counts when the process stops', async () => {
    const other = createServices(ctx.db, ctx.config);
    const second = await buildApp({ db: ctx.db, config: ctx.config, services: other });
    const diploma = await insertDiplomaFixture(ctx.db, other.storage, '20260000000003');
    expect((await second.inject({ method: 'GET', url: `/api/verify/${diploma.id}/pdf` })).statusCode).toBe(200);
    expect(await downloadsOf(diploma.id)).toBe(0);
    await second.close();
    expect(await downloadsOf(diploma.id)).toBe(1);
  });

  it('writes on its own a few seconds later, in one statement for several diplomas', async () => {
    const { DownloadCounter } = await import('./public-download-counter.ts');
    const counter = new DownloadCounter(ctx.db, { flushMs: 50 });
    const a = await insertDiplomaFixture(ctx.db, services.storage, '20260000000004');
    const b = await insertDiplomaFixture(ctx.db, services.storage, '20260000000005');
    expect(counter.record(a.id, '192.0.2.1')).toBe(true);
    expect(counter.record(a.id, '192.0.2.1')).toBe(false);
    expect(counter.record(a.id, '192.0.2.2')).toBe(true);
    expect(counter.record(b.id, '192.0.2.1')).toBe(true);
    await expect.poll(async () => [await downloadsOf(a.id), await downloadsOf(b.id)], { timeout: 5000 }).toEqual([2, 1]);
  });

  it('refuses a revoked diploma, one of a revoked batch, an unpublished one and an unknown id (404), a malformed id (422)', async () => {
    const revoked = await insertDiplomaFixture(ctx.db, services.storage, '20260000000006', { revoked: true });
    const batchRevoked = await insertDiplomaFixture(ctx.db, services.storage, '20260000000007', { batchRevoked: true });
    const unpublished = await insertDiplomaFixture(ctx.db, services.storage, '20260000000008', { status: 'ready_for_signature' });
    for (const id of [revoked.id, batchRevoked.id, unpublished.id, 'AAAAAAAAAAAAAAAAAAAAAA']) {
      for (const file of ['pdf', 'photo']) {
        const res = await app.inject({ method: 'GET', url: `/api/verify/${id}/${file}`, headers: { 'x-locale': 'en' } });
        expect(res.statusCode, `${file} of ${id}`).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
    }
    await services.downloads.flush();
    expect(await downloadsOf(revoked.id)).toBe(0);
    const bad = await app.inject({ method: 'GET', url: '/api/verify/not-an-id/pdf' });
    expect(bad.statusCode).toBe(422);
  });

  it("serves a published diploma's photo with cache headers and answers 304 to a revalidation", async () => {
    const diploma = await insertDiplomaFixture(ctx.db, services.storage, '20260000000009');
    const res = await app.inject({ method: 'GET', url: `/api/verify/${diploma.id}/photo` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.rawPayload.equals(FAKE_PHOTO)).toBe(true);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{16}"$/);
    const again = await app.inject({ method: 'GET', url: `/api/verify/${diploma.id}/photo`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const without = await insertDiplomaFixture(ctx.db, services.storage, '20260000000010', { photo: false });
    expect((await app.inject({ method: 'GET', url: `/api/verify/${without.id}/photo` })).statusCode).toBe(404);
  });
});
