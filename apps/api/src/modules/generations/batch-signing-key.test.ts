// A batch generated with a key that was retired before its signature (ADR 0148): its root anchored
// now would make every verifier refuse its diplomas, so the signature step refuses it with a
// translated message saying what to do, and the anchoring job (queued before a rotation) does not
// write it. A batch made with the active key is signed and published as before.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { diplomas, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions } from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { NATIONAL } from '../../policies/scope.ts';
import { seedCountryTemplate } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { signIn } from '../../../test/helpers.ts';
import { moveSignature } from './generation-status.ts';

let ctx: ChainTestContext;
let services: Services;
let queue: JobQueue;
let app: App;
let admin: Record<string, string>;
const RETIRED_KID = 'retiredKid0000000000';

/** A generated batch (ready for its signature) of one diploma signed with `kid`. */
async function generatedBatch(kid: string): Promise<number> {
  const templateId = await seedCountryTemplate(ctx.db);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KC-1'));
  const [school] = await ctx.db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [option] = await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const [batch] = await ctx.db
    .insert(generations)
    .values({
      type: 'diplome_etat',
      templateId,
      sessionId: session!.id,
      educProvinceId: province!.id,
      institutionId: school!.id,
      status: 'ready_for_signature',
      merkleRoot: randomBytes(32).toString('hex'),
    })
    .returning();
  const [item] = await ctx.db
    .insert(generationItems)
    .values({
      generationId: batch!.id,
      candidateCode: `${20269800000000 + batch!.id}`,
      lastName: 'Matondo',
      birthDate: '2007-02-01',
      birthPlace: 'Matadi',
      gender: 'F',
      optionId: option!.optionId,
      institutionId: school!.id,
      centreId: school!.centreId,
      percentageTenths: 650,
      photoStatus: 'validated',
      dataStatus: 'validated',
    })
    .returning();
  await ctx.db.insert(diplomas).values({
    id: randomBytes(16).toString('base64url').slice(0, 22),
    itemId: item!.id,
    generationId: batch!.id,
    candidateCode: item!.candidateCode,
    credential: {},
    targetHash: randomBytes(32).toString('hex'),
    qrPayload: 'SC1:test',
    signingKeyId: kid,
  });
  return batch!.id;
}

const row = async (id: number) => (await ctx.db.select().from(generations).where(eq(generations.id, id)))[0]!;

beforeAll(async () => {
  ctx = await createChainTestApp();
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain: ctx.chain }, queue });
  queue.define(services.jobs!.anchor);
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

describe('the signature of a batch made with a key since retired', () => {
  it('is refused (409) with a translated message naming the key and what to do; nothing starts', async () => {
    const id = await generatedBatch(RETIRED_KID);
    const fr = await app.inject({ method: 'POST', url: `/api/generations/${id}/apply-signature`, headers: admin });
    expect(fr.statusCode).toBe(409);
    expect(fr.json().errors.signing_key[0]).toBe(
      `Ce lot a été produit avec la clé ${RETIRED_KID}, retirée depuis : publié maintenant, chacun de ses diplômes serait refusé par les vérificateurs. Annulez ce lot, puis importez à nouveau sa liste et lancez-la : ses diplômes seront produits avec la clé active`,
    );
    const en = await app.inject({ method: 'POST', url: `/api/generations/${id}/apply-signature`, headers: { ...admin, 'x-locale': 'en' } });
    expect(en.json().errors.signing_key[0]).toMatch(new RegExp(`^This batch was produced with key ${RETIRED_KID}, retired since: .*Cancel this batch`));
    expect(await row(id)).toMatchObject({ status: 'ready_for_signature', signatureStatus: 'not_started', anchorTxHash: null });
    // What the refusal says to do: the batch can be cancelled.
    expect((await app.inject({ method: 'DELETE', url: `/api/generations/${id}/cancel`, headers: admin })).statusCode).toBe(200);
  });

  it('the batch as the API presents it: no `sign`, and why, for the web to show in place of the button; `cancel` still offered', async () => {
    const id = await generatedBatch(RETIRED_KID);
    const batch = (await app.inject({ method: 'GET', url: `/api/generations/${id}`, headers: admin })).json().data;
    expect(batch.abilities).toMatchObject({ sign: false, cancel: true, preview: true });
    expect(batch.refusals).toEqual({ sign: { key: 'field.batch_signing_key_retired', params: { kid: RETIRED_KID } } });
    const active = await generatedBatch(ctx.keys.active.kid);
    const ok = (await app.inject({ method: 'GET', url: `/api/generations/${active}`, headers: admin })).json().data;
    expect(ok.abilities.sign).toBe(true);
    expect(ok.refusals).toEqual({});
  });

  it('a batch made with the active key is signed and published', async () => {
    const id = await generatedBatch(ctx.keys.active.kid);
    expect((await app.inject({ method: 'POST', url: `/api/generations/${id}/apply-signature`, headers: admin })).statusCode).toBe(202);
    await vi.waitFor(async () => expect(await row(id)).toMatchObject({ status: 'completed', signatureStatus: 'finished' }), { timeout: 30_000, interval: 500 });
  });

  it('the anchoring job queued before a rotation writes nothing: the signature goes back to not started, the reason recorded', async () => {
    const id = await generatedBatch(RETIRED_KID);
    await ctx.db.transaction((tx) => moveSignature(tx, id, 'in_progress'));
    await services.issuing!.anchor(id);
    const after = await row(id);
    expect(after).toMatchObject({ status: 'ready_for_signature', signatureStatus: 'not_started', anchorTxHash: null });
    expect(after.lastError).toContain(`signed with key ${RETIRED_KID}, retired since`);
  });

  it('the rule itself: outside the state (another key) refused with the field message, inside (the active key, or keys unknown) allowed', () => {
    const actor = { id: 1, permissions: ['generation.generate'], scope: NATIONAL } as never;
    const batch = { status: 'ready_for_signature', signatureStatus: 'not_started', revokedAt: null, educProvinceId: 1, institutionId: null, centreId: null } as never;
    expect(generationPolicy.sign(actor, batch, { batchKids: ['old'], activeKid: 'new' })).toEqual({
      field: 'signing_key',
      message: { key: 'field.batch_signing_key_retired', params: { kid: 'old' } },
      conflict: true,
    });
    expect(generationPolicy.sign(actor, batch, { batchKids: [], activeKid: 'new' })).toBe(true);
    expect(generationPolicy.sign(actor, batch)).toBe(true);
    // The abilities read the same rule: `sign` false with the refusal's message, true with the active key.
    expect(generationPolicy.judge(actor, batch, { batchKids: ['old'], activeKid: 'new' })).toMatchObject({
      abilities: { sign: false },
      refusals: { sign: { key: 'field.batch_signing_key_retired', params: { kid: 'old' } } },
    });
    expect(generationPolicy.abilities(actor, batch, { batchKids: ['old'], activeKid: 'new' }).sign).toBe(false);
    expect(generationPolicy.judge(actor, batch, { batchKids: [], activeKid: 'new' })).toMatchObject({ abilities: { sign: true }, refusals: {} });
    // A refusal is told only for what the actor could otherwise do: without the permission, nothing to explain.
    const viewer = { id: 2, permissions: ['generation.view'], scope: NATIONAL } as never;
    expect(generationPolicy.judge(viewer, batch, { batchKids: ['old'], activeKid: 'new' }).refusals).toEqual({});
  });
});
