import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { auditLog, diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, officialSignatures } from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { demoPhoto, seedCountryTemplate, seedDemoSignatures } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { codeIn, lastMessageTo, signIn } from '../../../test/helpers.ts';
import type { OpenChain } from '../chain/open-chain.ts';

let ctx: ChainTestContext;
let chain: OpenChain;
let services: Services;
let queue: JobQueue;
let app: App;
let admin: Record<string, string>;

/** A batch whose three candidates are validated: ready for generation. */
async function readyBatch(): Promise<number> {
  const templateId = await seedCountryTemplate(ctx.db);
  await seedDemoSignatures(ctx.db, services.storage);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KC-1'));
  const [school] = await ctx.db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [option] = await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const [batch] = await ctx.db
    .insert(generations)
    .values({ type: 'diplome_etat', templateId, sessionId: session!.id, educProvinceId: province!.id, institutionId: school!.id, status: 'ready_for_generation', createdBy: null })
    .returning();
  for (let i = 0; i < 3; i++) {
    const photoKey = `photos/test/${batch!.id}-${i}.jpg`;
    await services.storage.put(photoKey, await demoPhoto(i * 90));
    await ctx.db.insert(generationItems).values({
      generationId: batch!.id,
      candidateCode: `${20269900000000 + batch!.id * 10 + i}`,
      lastName: ['Matondo', 'Luzolo', 'Nkiambi'][i]!,
      middleName: 'Ndombasi',
      firstName: ['Espérance', 'Joël', 'Naomie'][i]!,
      birthDate: `2007-02-0${i + 1}`,
      birthPlace: 'Matadi',
      gender: i === 1 ? 'M' : 'F',
      optionId: option!.optionId,
      institutionId: school!.id,
      centreId: school!.centreId,
      percentageTenths: 600 + i * 55,
      photoKey,
      photoStatus: 'validated',
      dataStatus: 'validated',
    });
  }
  return batch!.id;
}

beforeAll(async () => {
  ctx = await createChainTestApp({ OTP_RESEND_SECONDS: '0' });
  chain = ctx.chain;
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain }, queue });
  queue.define(services.jobs!.generate, services.jobs!.anchor, services.revocation!.job);
  await queue.start({ work: true, pollingIntervalSeconds: 0.5 });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  admin = { authorization: `Bearer ${await signIn(ctx, 'admin@sceau.example')}` };
}, 120_000);
afterAll(async () => {
  await queue?.stop();
  await app?.close();
  await ctx?.close();
});

const status = async (id: number) => (await app.inject({ method: 'GET', url: `/api/generations/${id}/status`, headers: admin })).json().data;

describe('launching, generating and publishing a batch', () => {
  it('needs a one-time code of this user for this batch, then generates in the background and publishes on signature', async () => {
    const id = await readyBatch();
    const noCode = await app.inject({ method: 'POST', url: '/api/start-generation-process', headers: admin, payload: { generation_id: id } });
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json().errors.code).toBeDefined();

    const sent = await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${id}`, headers: admin });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ channel: 'email', destination: 'ad•••@sceau.example' });
    const code = codeIn((await lastMessageTo(ctx, 'admin@sceau.example'))?.text);
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/generations/verify-otp',
      headers: admin,
      payload: { code: code === '000000' ? '111111' : '000000', generation_id: id },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code[0]).toMatch(/Tentatives restantes : 4/);
    expect((await app.inject({ method: 'POST', url: '/api/generations/verify-otp', headers: admin, payload: { code, generation_id: id } })).statusCode).toBe(200);

    // Another user cannot use this user's grant.
    const root = { authorization: `Bearer ${await signIn(ctx, 'root@sceau.example')}` };
    expect((await app.inject({ method: 'POST', url: '/api/generations/start', headers: root, payload: { generation_id: id } })).statusCode).toBe(422);

    const started = await app.inject({ method: 'POST', url: '/api/generations/start', headers: admin, payload: { generation_id: id } });
    expect(started.statusCode).toBe(200);
    // The grant is spent: no second launch with it.
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
    expect((await status(id)).progress).toEqual({ done: 3, total: 3, percent: 100 });

    const sign = await app.inject({ method: 'POST', url: `/api/generations/${id}/apply-signature`, headers: admin });
    expect(sign.statusCode).toBe(202);
    await vi.waitFor(async () => expect(await status(id)).toMatchObject({ status: 'completed', signature_status: 'finished' }), { timeout: 30_000, interval: 500 });

    const [one] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, id)).limit(1);
    expect((await app.inject({ method: 'GET', url: `/api/verify/${one!.id}` })).json().data.verdict).toBe('authentic');
    // Published: cannot be cancelled (revoke instead), nor signed again.
    expect((await app.inject({ method: 'DELETE', url: `/api/generations/${id}/cancel`, headers: admin })).statusCode).toBe(409);
    expect((await app.inject({ method: 'POST', url: `/api/generations/${id}/apply-signature`, headers: admin })).statusCode).toBe(409);
  });

  it('relaunches a failed batch with a new code: the generation resumes', async () => {
    const id = await readyBatch();
    await ctx.db.update(generations).set({ status: 'failed', lastError: 'candidate has no photo' }).where(eq(generations.id, id));
    await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${id}`, headers: admin });
    const code = codeIn((await lastMessageTo(ctx, 'admin@sceau.example'))?.text);
    expect((await app.inject({ method: 'POST', url: '/api/generations/verify-otp', headers: admin, payload: { code, generation_id: id } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/start-generation-process', headers: admin, payload: { generation_id: id } })).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
  });

  it('cancels a batch before its signature starts, and refuses roles that may not launch', async () => {
    const id = await readyBatch();
    const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
    expect((await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${id}`, headers: validateur })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/generations/send-otp?generation_id=abc', headers: admin })).statusCode).toBe(422);
    const cancelled = await app.inject({ method: 'DELETE', url: `/api/generations/${id}/cancel`, headers: { ...admin, 'x-locale': 'en' } });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.message).toBe('Batch cancelled.');
    expect((await status(id)).status).toBe('cancelled');
    expect((await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${id}`, headers: admin })).statusCode).toBe(409);
  });
});

describe('the official signatures chosen at launch', () => {
  /** A code sent to the admin and verified for the batch (the launch is then allowed for a few minutes). */
  async function verifiedCode(id: number) {
    await app.inject({ method: 'GET', url: `/api/generations/send-otp?generation_id=${id}`, headers: admin });
    const code = codeIn((await lastMessageTo(ctx, 'admin@sceau.example'))?.text);
    expect((await app.inject({ method: 'POST', url: '/api/generations/verify-otp', headers: admin, payload: { code, generation_id: id } })).statusCode).toBe(200);
  }
  const launch = (id: number, signatures?: unknown) =>
    app.inject({ method: 'POST', url: '/api/generations/start', headers: admin, payload: { generation_id: id, ...(signatures ? { signatures } : {}) } });
  const signatures = async (id: number) => (await app.inject({ method: 'GET', url: `/api/generations/${id}/signatures`, headers: admin })).json().data;

  /** The text of one of the batch's PDFs, as a reader extracts it. */
  async function pdfText(id: number): Promise<string> {
    const [one] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, id)).limit(1);
    const file = path.join(ctx.dataDir, `check-${id}.pdf`);
    await writeFile(file, (await services.storage.get(one!.pdfKey!))!);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  }

  it('lists the active signatures; prints exactly the chosen ones; checks the choice before spending the code', async () => {
    const id = await readyBatch();
    expect(await signatures(id)).toEqual({
      available: [
        { kind: 'inspector_general', name: 'Jean-Claude Ilunga Mbuyi', title: "L'Inspecteur général" },
        { kind: 'jury', name: 'Thérèse Nsimba Luzolo', title: 'La Présidente du Jury' },
        { kind: 'ministry', name: 'Béatrice Mwamba Kasongo', title: "La Ministre de l'Éducation nationale" },
      ],
      chosen: null,
      locked: false,
      launch_code: null,
    });
    await verifiedCode(id);
    for (const bad of [[], ['ministry', 'ministry'], ['ministry', 'president']]) {
      const refused = await launch(id, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(422);
      expect(refused.json().errors.signatures ?? refused.json().errors['signatures.1']).toBeDefined();
    }
    expect((await launch(id, [])).json().errors.signatures[0]).toBe('Choisissez au moins une signature officielle');

    // A signature removed from /settings cannot be chosen any more.
    const [jury] = await ctx.db.delete(officialSignatures).where(eq(officialSignatures.kind, 'jury')).returning();
    try {
      const inactive = await launch(id, ['ministry', 'jury']);
      expect(inactive.statusCode).toBe(422);
      expect(inactive.json().errors.signatures[0]).toMatch(/n'est plus enregistrée/);
    } finally {
      await ctx.db.insert(officialSignatures).values(jury!);
    }

    // The refusals did not spend the verified code.
    expect((await launch(id, ['inspector_general', 'ministry'])).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
    const text = await pdfText(id);
    expect(text).toContain('Béatrice Mwamba Kasongo');
    expect(text).toContain('Jean-Claude Ilunga Mbuyi');
    // Neither the jury's signer nor the template's placeholder for that box.
    expect(text).not.toContain('Thérèse Nsimba Luzolo');
    expect(text).not.toMatch(/Jury/);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.signatures_chosen'), eq(auditLog.subjectId, String(id))));
    expect(audit!.details).toEqual({ signatures: ['inspector_general', 'ministry'] });
    expect(await signatures(id)).toMatchObject({ chosen: ['inspector_general', 'ministry'], locked: true });
  });

  it('keeps the choice of diplomas already printed when a failed batch is relaunched', async () => {
    const id = await readyBatch();
    await verifiedCode(id);
    expect((await launch(id, ['jury'])).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
    // As if the generation had failed after printing some of them.
    const [first] = await ctx.db.select().from(diplomas).where(eq(diplomas.generationId, id)).limit(1);
    await ctx.db
      .update(diplomas)
      .set({ pdfKey: null })
      .where(and(eq(diplomas.generationId, id), eq(diplomas.id, first!.id)));
    await ctx.db.update(generations).set({ status: 'failed', lastError: 'interrupted' }).where(eq(generations.id, id));

    await verifiedCode(id);
    const changed = await launch(id, ['ministry']);
    expect(changed.statusCode).toBe(422);
    expect(changed.json().errors.signatures[0]).toMatch(/ne peuvent plus changer/);
    // Without a choice, the batch's own is kept.
    expect((await launch(id)).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
    const [row] = await ctx.db.select({ kinds: generations.signatureKinds }).from(generations).where(eq(generations.id, id));
    expect(row!.kinds).toEqual(['jury']);
    const text = await pdfText(id);
    expect(text).toContain('Thérèse Nsimba Luzolo');
    expect(text).not.toContain('Béatrice Mwamba Kasongo');
  });

  it('prints the signatures as they stood at launch, whatever /settings holds afterwards', async () => {
    const id = await readyBatch();
    await verifiedCode(id);
    expect((await launch(id, ['ministry'])).statusCode).toBe(200);
    const [launched] = await ctx.db.select({ snapshot: generations.signatureSnapshot }).from(generations).where(eq(generations.id, id));
    const [ministry] = await ctx.db.select().from(officialSignatures).where(eq(officialSignatures.kind, 'ministry'));
    expect(launched!.snapshot).toEqual([
      { kind: 'ministry', signerName: ministry!.signerName, signerTitle: ministry!.signerTitle, imageKey: ministry!.imageKey, imageSha256: ministry!.imageSha256 },
    ]);
    await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });

    // Replaced on /settings after a batch was launched: a relaunch of that batch (nothing printed
    // yet) still prints the launch's snapshot, not the new signer.
    await ctx.db.update(diplomas).set({ pdfKey: null }).where(eq(diplomas.generationId, id));
    await ctx.db.update(generations).set({ status: 'in_progress', progressDone: 0 }).where(eq(generations.id, id));
    await ctx.db.update(officialSignatures).set({ signerName: 'Signataire Remplacé' }).where(eq(officialSignatures.kind, 'ministry'));
    try {
      await queue.send(services.jobs!.generate, { generationId: id }, { singletonKey: `generate-again:${id}` });
      await vi.waitFor(async () => expect((await status(id)).status).toBe('ready_for_signature'), { timeout: 30_000, interval: 500 });
      const text = await pdfText(id);
      expect(text).toContain(ministry!.signerName);
      expect(text).not.toContain('Signataire Remplacé');
    } finally {
      await ctx.db.update(officialSignatures).set({ signerName: ministry!.signerName }).where(eq(officialSignatures.kind, 'ministry'));
    }
  });

  it('is refused to roles that may not launch and outside the scope', async () => {
    const id = await readyBatch();
    const validateur = { authorization: `Bearer ${await signIn(ctx, 'validateur@sceau.example')}` };
    expect((await app.inject({ method: 'GET', url: `/api/generations/${id}/signatures`, headers: validateur })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/generations/999999/signatures', headers: admin })).statusCode).toBe(404);
  });
});
