// The "SPÉCIMEN" preview and the launch step that survives a reload (issue 15 item 7), on the real
// app and database: who may open a preview (inside and outside the batch's scope, with and without
// generation.generate), what it shows, and what it must not be (signed, a credential, a diploma).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractAttachment } from '@sceau/pdf';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { generations, officialSignatures } from '../../db/schema.ts';
import { demoPhoto, seedDemoSignatures } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { insertStaff, insertTwoCandidateBatch } from '../../../test/batches.ts';
import { codeIn, createTestApp, lastMessageTo, signIn, type TestContext } from '../../../test/helpers.ts';

let ctx: TestContext;
let services: Services;
let app: App;
let dir: string;
let batchId: number;
let itemIds: number[];
const as: Record<'root' | 'insider' | 'outsider' | 'validator', Record<string, string>> = {} as never;

/** A staff account working in an educational province. */
const staffAt = (email: string, role: string, educProvinceId: number) => insertStaff(ctx.db, { email, role, educProvinceId, name: 'Agent', firstName: 'Test' });

const bearer = async (email: string) => ({ authorization: `Bearer ${await signIn(ctx, email)}` });
const specimen = (query: string, headers: Record<string, string>) => app.inject({ method: 'GET', url: `/api/generations/${batchId}/specimen${query}`, headers });
const pdfText = (bytes: Buffer, name: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
};

beforeAll(async () => {
  ctx = await createTestApp({ OTP_RESEND_SECONDS: '60' });
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  dir = mkdtempSync(path.join(tmpdir(), 'sceau-specimen-'));
  await seedDemoSignatures(ctx.db, services.storage);
  const batch = await insertTwoCandidateBatch(ctx.db, {
    status: 'ready_for_generation',
    codeBase: 20269800000000,
    candidate: async (id, i) => {
      const photoKey = i === 0 ? `photos/test/specimen-${id}.jpg` : null;
      if (photoKey) await services.storage.put(photoKey, await demoPhoto(40));
      return { middleName: 'Ndombasi', photoKey, photoStatus: 'validated', dataStatus: 'validated' };
    },
  });
  ({ batchId, itemIds } = batch);
  const { province, other } = batch;
  await staffAt('specimen-insider@sceau.example', 'admin', province!.id);
  await staffAt('specimen-outsider@sceau.example', 'admin', other!.educProvinceId);
  await staffAt('specimen-validator@sceau.example', 'validateur', province!.id);
  as.root = await bearer('root@sceau.example');
  as.insider = await bearer('specimen-insider@sceau.example');
  as.outsider = await bearer('specimen-outsider@sceau.example');
  as.validator = await bearer('specimen-validator@sceau.example');
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the SPÉCIMEN preview', () => {
  it("shows the first candidate's diploma as the batch will print it, watermarked, unsigned, without a credential", async () => {
    const res = await specimen('', as.insider);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="specimen-\d{14}\.pdf"$/);
    const text = pdfText(res.rawPayload, 'first.pdf');
    expect(text).toContain('SPÉCIMEN');
    expect(text).toContain('Matondo Ndombasi Espérance');
    expect(text).toContain('née à Matadi');
    expect(text).toContain('68,4 % des points');
    // The signatures registered on /settings are on it, as they will be printed.
    const [ministry] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'ministry'));
    expect(text).toContain(ministry!.signerName);
    const check = spawnSync('pdfsig', [path.join(dir, 'first.pdf')], { encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toMatch(/does not contain any signatures/);
    const attached = await extractAttachment(new Uint8Array(res.rawPayload), 'credential.json');
    expect(JSON.parse(new TextDecoder().decode(attached!))).toEqual({ specimen: true });
  });

  it('shows any candidate of the batch, one without a photo too, and the signatures being chosen', async () => {
    const second = await specimen(`?item=${itemIds[1]}&signatures=jury`, as.root);
    expect(second.statusCode).toBe(200);
    const text = pdfText(second.rawPayload, 'second.pdf');
    expect(text).toContain('Luzolo Ndombasi Joël');
    expect(text).toMatch(/\bné à Matadi/);
    const [ministry] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'ministry'));
    const [jury] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'jury'));
    expect(text).toContain(jury!.signerName);
    expect(text).not.toContain(ministry!.signerName);
  });

  it('answers 404 for a candidate of another batch, 422 for a bad query, and nothing for a stranger', async () => {
    expect((await specimen('?item=999999999', as.insider)).statusCode).toBe(404);
    expect((await specimen('?item=abc', as.insider)).statusCode).toBe(422);
    expect((await specimen('?signatures=president', as.insider)).statusCode).toBe(422);
    expect((await specimen(`?signatures=${'jury,'.repeat(40)}`, as.insider)).statusCode).toBe(422);
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}/specimen` })).statusCode).toBe(401);
  });

  it('is refused outside the batch scope (hidden) and without generation.generate', async () => {
    expect((await specimen('', as.outsider)).statusCode).toBe(404);
    expect((await specimen('', as.validator)).statusCode).toBe(403);
    const detail = async (headers: Record<string, string>) =>
      (await app.inject({ method: 'GET', url: `/api/generations/${batchId}?page=1`, headers })).json().data.abilities.preview;
    expect(await detail(as.insider)).toBe(true);
    expect(await detail(as.validator)).toBe(false);
  });

  it('is refused for a cancelled batch', async () => {
    await ctx.db.update(generations).set({ status: 'cancelled' }).where(eq(generations.id, batchId));
    try {
      expect((await specimen('', as.insider)).statusCode).toBe(409);
    } finally {
      await ctx.db.update(generations).set({ status: 'ready_for_generation' }).where(eq(generations.id, batchId));
    }
  });
});

describe('the launch step after a reload', () => {
  it('says a code was sent (where, masked, and the timers), then that it was verified', async () => {
    const signatures = async () => (await app.inject({ method: 'GET', url: `/api/generations/${batchId}/signatures`, headers: as.insider })).json().data;
    expect((await signatures()).launch_code).toBeNull();
    const sent = await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${batchId}`, headers: as.insider });
    expect(sent.statusCode).toBe(200);
    const waiting = (await signatures()).launch_code;
    expect(waiting).toMatchObject({ state: 'sent', channel: 'email', destination: sent.json().data.destination });
    expect(waiting.expires_in).toBeGreaterThan(60);
    expect(waiting.resend_in).toBeGreaterThan(50);
    expect(waiting.resend_in).toBeLessThanOrEqual(60);
    // A second send within the minute is refused: the step still knows the code waits.
    expect((await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${batchId}`, headers: as.insider })).statusCode).toBe(429);
    expect((await signatures()).launch_code.state).toBe('sent');
    const code = codeIn((await lastMessageTo(ctx, 'specimen-insider@sceau.example'))?.text);
    const verified = await app.inject({ method: 'POST', url: '/api/generations/verify-otp', headers: as.insider, payload: { generation_id: batchId, code } });
    expect(verified.statusCode).toBe(200);
    const ok = (await signatures()).launch_code;
    expect(ok).toMatchObject({ state: 'verified' });
    expect(ok.expires_in).toBeGreaterThan(500);
    // Another user's step is their own.
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}/signatures`, headers: as.root })).json().data.launch_code).toBeNull();
  });
});
