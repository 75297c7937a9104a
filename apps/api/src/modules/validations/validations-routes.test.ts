import type { GenerationStatus } from '@sceau/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { buildApp, type App } from '../../app.ts';
import { auditLog, educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, roles, userRoles, users } from '../../db/schema.ts';
import { demoPhoto, seedCountryTemplate } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { hashPassword } from '../accounts/auth-service.ts';
import { originalKeyOf, originalPhotoKey } from '../../lib/photo-files.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { actorOf } from '../imports/imports-test-support.ts';
import { VALIDATE_ALL_CHUNK, ValidationsService } from './validations-service.ts';

let ctx: TestContext;
let app: App;
let services: Services;
const as: Record<string, Record<string, string>> = {};
/** KIN-FUN-C1-E1 and -E2: two schools of one centre, with their first option each. */
let schools: { id: number; centreId: number; optionId: number }[];
let codeSeq = 0;

async function bearer(email: string) {
  return { authorization: `Bearer ${await signIn(ctx, email)}` };
}

/** A batch of `n` candidates (alternately of each school), each with a photo, in `status`. */
async function makeBatch(n = 4, status: GenerationStatus = 'pending_validation', validated = false): Promise<{ id: number; items: number[] }> {
  const templateId = await seedCountryTemplate(ctx.db);
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [batch] = await ctx.db
    .insert(generations)
    .values({ type: 'diplome_etat', templateId, title: 'Lot à valider', sessionId: session!.id, educProvinceId: province!.id, status })
    .returning();
  const items: number[] = [];
  for (let i = 0; i < n; i++) {
    const school = schools[i % 2]!;
    const code = String(20267700000000 + ++codeSeq);
    const photoKey = `photos/${batch!.id}/${code}.jpg`;
    await services.storage.put(photoKey, await demoPhoto(i * 60));
    const [item] = await ctx.db
      .insert(generationItems)
      .values({
        generationId: batch!.id,
        candidateCode: code,
        lastName: ['Matondo', 'Luzolo', "N'Sele", 'Nkiambi'][i % 4]!,
        middleName: 'Ndombasi',
        firstName: ['Espérance', 'Joël', 'Jean-Baptiste', 'Naomie'][i % 4]!,
        birthDate: '2007-02-01',
        birthPlace: 'Matadi',
        gender: i % 2 ? 'M' : 'F',
        optionId: school.optionId,
        institutionId: school.id,
        centreId: school.centreId,
        percentageTenths: 650,
        photoKey,
        photoStatus: validated ? 'validated' : 'pending',
        dataStatus: validated ? 'validated' : 'pending',
      })
      .returning({ id: generationItems.id });
    items.push(item!.id);
  }
  return { id: batch!.id, items };
}

const batchStatus = async (id: number) => (await ctx.db.select({ status: generations.status }).from(generations).where(eq(generations.id, id)))[0]!.status;
const itemRow = async (id: number) => (await ctx.db.select().from(generationItems).where(eq(generationItems.id, id)))[0]!;
const post = (url: string, payload: object, headers = as.validateur!) => app.inject({ method: 'POST', url, headers, payload });

beforeAll(async () => {
  ctx = await createTestApp();
  services = createServices(ctx.db, ctx.config);
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  schools = [];
  for (const code of ['KIN-FUN-C1-E1', 'KIN-FUN-C1-E2']) {
    const [school] = await ctx.db.select().from(institutions).where(eq(institutions.code, code));
    const [option] = await ctx.db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
    schools.push({ id: school!.id, centreId: school!.centreId, optionId: option!.optionId });
  }
  for (const role of ['validateur', 'controleur', 'backoffice_manager', 'admin']) as[role] = await bearer(`${role}@sceau.example`);
  // A validator of another province's school: sees none of these batches.
  const [other] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'));
  const [elsewhere] = await ctx.db
    .select()
    .from(institutions)
    .where(and(eq(institutions.countryId, other!.countryId)))
    .orderBy(desc(institutions.id))
    .limit(1);
  expect(elsewhere!.educProvinceId).not.toBe(other!.educProvinceId);
  const [user] = await ctx.db
    .insert(users)
    .values({
      name: 'Ailleurs',
      firstName: 'Agent',
      email: 'ailleurs@sceau.example',
      passwordHash: await hashPassword('Sceau-Demo-2026'),
      verifiedAt: new Date(),
      institutionId: elsewhere!.id,
      centreId: elsewhere!.centreId,
      educProvinceId: elsewhere!.educProvinceId,
    })
    .returning();
  const [validateur] = await ctx.db.select().from(roles).where(eq(roles.name, 'validateur'));
  await ctx.db.insert(userRoles).values({ userId: user!.id, roleId: validateur!.id });
  as.elsewhere = await bearer('ailleurs@sceau.example');
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('photo validation', () => {
  it('lists a batch’s candidates with their photo, filtered by school, centre, option, search and state', async () => {
    const { id, items } = await makeBatch(4);
    const all = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}`, headers: as.validateur });
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 4 });
    expect(body.generation).toMatchObject({
      id,
      status: 'pending_validation',
      open: true,
      counts: { items: 4, photos: { pending: 4, validated: 0, rejected: 0 }, candidates: { pending: 4 } },
    });
    expect(body.data[0]).toMatchObject({ photo_status: 'pending', data_status: 'pending', status: 'pending', rejected: false, institution: { id: expect.any(Number) } });
    expect(body.data[0].photo_url).toMatch(new RegExp(`^/api/validations/photos/${id}/items/\\d+/photo\\?v=[0-9a-f]{12}$`));

    const bySchool = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?institution=${schools[1]!.id}&option=${schools[1]!.optionId}`, headers: as.validateur });
    expect(
      bySchool
        .json()
        .data.map((i: { id: number }) => i.id)
        .sort(),
    ).toEqual([items[1], items[3]].sort());
    const byCentre = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?center=${schools[0]!.centreId}&per_page=1&page=2`, headers: as.validateur });
    expect(byCentre.json().meta).toMatchObject({ current_page: 2, last_page: 4, total: 4 });
    const search = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?search=${encodeURIComponent("n'sele jean")}`, headers: as.validateur });
    expect(search.json().data.map((i: { id: number }) => i.id)).toEqual([items[2]]);
    const bad = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?option=abc`, headers: { ...as.validateur, 'x-locale': 'en' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.option).toBeDefined();

    // The photo itself, and as a data URL for the editor (by id or by its URL).
    const photo = await app.inject({ method: 'GET', url: body.data[0].photo_url, headers: as.validateur });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const byUrl = await app.inject({ method: 'GET', url: `/api/image-to-base64?image=${encodeURIComponent(body.data[0].photo_url)}`, headers: as.validateur });
    expect(byUrl.json().data.base64).toBe(`data:image/jpeg;base64,${photo.rawPayload.toString('base64')}`);
    const byId = await app.inject({ method: 'GET', url: `/api/image-to-base64?image=${body.data[0].id}`, headers: as.validateur });
    expect(byId.json().data.base64).toBe(byUrl.json().data.base64);
    expect((await app.inject({ method: 'GET', url: '/api/image-to-base64?image=nothing', headers: as.validateur })).statusCode).toBe(422);
  });

  it('validates several photos at once, edits one on the server, stores an edited image and rejects one with its reason', async () => {
    const { id, items } = await makeBatch(4);
    const bulk = await post('/api/validations/photos/validate', { items: [items[0], items[1]], generation_id: id }, { ...as.validateur!, 'x-locale': 'en' });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().data).toMatchObject({ message: '2 photos validated.', skipped: [], generation: { counts: { photos: { pending: 2, validated: 2 } } } });
    expect((await itemRow(items[0]!)).photoStatus).toBe('validated');

    // Edit: crop, size, brightness, contrast, hue: a new JPEG of the chosen size, at most 30 KB.
    const before = await itemRow(items[2]!);
    const importedBytes = await services.storage.get(before.photoKey!);
    expect(await services.storage.get(originalPhotoKey(id, before.candidateCode))).toBeNull();
    const urlBefore = (await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?search=${before.candidateCode}`, headers: as.validateur })).json().data[0].photo_url;
    const edits = { brightness: 120, contrast: 130, hue: 40, width: 240, height: 320, crop: { x: 20, y: 20, w: 260, h: 340 } };
    const edited = await post('/api/validations/photos/validate', { item: items[2], edits });
    expect(edited.statusCode).toBe(200);
    const after = await itemRow(items[2]!);
    expect(after.photoStatus).toBe('validated');
    expect(after.photoKey).not.toBe(before.photoKey);
    const stored = (await services.storage.get(after.photoKey!))!;
    expect(stored.length).toBeLessThanOrEqual(30_000);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', width: 240, height: 320 });
    // A new address, so no browser shows the old photo from its cache.
    expect(edited.json().data.items[0].photo_url).not.toBe(urlBefore);
    // The imported photo (at the box's size: its own original) becomes the original the editor crops
    // from, beside the edited photo; its old file is removed. The audit says who changed what.
    expect(await services.storage.get(originalKeyOf(after.photoKey!))).toEqual(importedBytes);
    expect(await services.storage.get(before.photoKey!)).toBeNull();
    const [entry] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'validation.photo_edited'), eq(auditLog.subjectId, String(items[2]))))
      .limit(1);
    expect(entry).toMatchObject({ actorId: expect.any(Number), details: expect.objectContaining({ generation_id: id, edits, before: before.photoKey, after: after.photoKey }) });
    // A crop beyond the photo is refused, translated.
    const outside = await post('/api/validations/photos/validate', { item: items[3], edits: { crop: { x: 200, y: 0, w: 200, h: 200 } } }, { ...as.validateur!, 'x-locale': 'en' });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().errors['edits.crop'][0]).toMatch(/beyond the photo \(240|beyond the photo \(300 × 400/);

    // The editor's result sent whole (a large PNG): fitted to 300 × 400 and stored.
    const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#88aacc' } })
      .png()
      .toBuffer();
    const image = await post('/api/validations/photos/validate', { item: items[3], image: `data:image/png;base64,${png.toString('base64')}` });
    expect(image.statusCode).toBe(200);
    expect(await sharp((await services.storage.get((await itemRow(items[3]!)).photoKey!))!).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 400 });
    // A phone photo's worth of data URL (over the API's usual 1 MB body limit) is accepted here.
    const noisy = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(1024 * 1024);
    const firstResult = (await itemRow(items[3]!)).photoKey!;
    const large = await post('/api/validations/photos/validate', { item: items[3], image: `data:image/png;base64,${noisy.toString('base64')}` });
    expect(large.statusCode).toBe(200);
    expect((await services.storage.get((await itemRow(items[3]!)).photoKey!))!.length).toBeLessThanOrEqual(30_000);
    // The superseded edit is removed with its copy of the original; the original (the imported photo,
    // kept at the first edit) follows the photo shown.
    expect(await services.storage.get(firstResult)).toBeNull();
    expect(await services.storage.get(originalKeyOf(firstResult))).toBeNull();
    expect(await services.storage.get(originalKeyOf((await itemRow(items[3]!)).photoKey!))).not.toBeNull();
    const notImage = await post('/api/validations/photos/validate', { item: items[3], image: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` });
    expect(notImage.statusCode).toBe(422);

    // Reject through the validate call, and through its own route; a reason is required.
    expect((await post('/api/validations/photos/validate', { item: items[1], reject: true })).json().errors.reason).toBeDefined();
    const rejected = await post('/api/validations/photos/validate', { item: items[1], reject: true, reason: 'Photo floue, visage non reconnaissable' });
    expect(rejected.statusCode).toBe(200);
    expect(await itemRow(items[1]!)).toMatchObject({
      photoStatus: 'rejected',
      rejected: true,
      rejectionReason: 'Photo floue, visage non reconnaissable',
      rejectedBy: expect.any(Number),
      rejectedAt: expect.any(Date),
    });
    const again = await post('/api/validations/photos/reject', { item: items[0], reason: 'Photo d’une autre personne' });
    expect(again.json().data.items[0]).toMatchObject({ status: 'rejected', rejection_reason: 'Photo d’une autre personne', rejected_by: { name: 'Grâce Tshisekedi' } });
    // A rejected candidate is not validated until reopened.
    expect((await post('/api/validations/photos/validate', { item: items[0] })).statusCode).toBe(409);
    expect((await post('/api/validations/photos/validate', { items: [items[0], items[2]] })).json().data.skipped).toEqual([items[0]]);
  });
});

describe('data validation', () => {
  it('corrects and validates a candidate’s data, validates several unchanged, and rejects one through DELETE', async () => {
    const { id, items } = await makeBatch(3);
    const edit = await post(
      '/api/validations/data/validate',
      { item: items[0], last_name: 'Matondo-Kiese', middle_name: '', first_name: 'Espérance', birth_place: 'Boma', birth_date: '2006-12-31', gender: 'F' },
      as.controleur,
    );
    expect(edit.statusCode).toBe(200);
    expect(await itemRow(items[0]!)).toMatchObject({
      lastName: 'Matondo-Kiese',
      middleName: null,
      birthPlace: 'Boma',
      birthDate: '2006-12-31',
      dataStatus: 'validated',
      photoStatus: 'pending',
    });
    const [entry] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'validation.data_validated'), eq(auditLog.subjectId, String(items[0]))));
    expect((entry!.details as { changes: Record<string, unknown> }).changes).toMatchObject({
      lastName: { from: 'Matondo', to: 'Matondo-Kiese' },
      middleName: { from: 'Ndombasi', to: null },
    });

    const bad = await post('/api/validations/data/validate', { item: items[1], birth_date: '2007-02-30', gender: 'X', last_name: 'R2D2' }, { ...as.controleur!, 'x-locale': 'fr' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({ birth_date: ["Cette date n'existe pas"], gender: [expect.any(String)], last_name: [expect.stringMatching(/^Lettres/)] });
    const implausible = await post('/api/validations/data/validate', { item: items[1], birth_date: '2020-01-01' }, { ...as.controleur!, 'x-locale': 'en' });
    expect(implausible.json().errors.birth_date[0]).toMatch(/14 to 70/);
    const both = await post('/api/validations/data/validate', { items: [items[1]], last_name: 'Autre' }, as.controleur);
    expect(both.statusCode).toBe(422);

    const bulk = await post('/api/validations/data/validate', { items: [items[1], items[2]] }, { ...as.controleur!, 'x-locale': 'en' });
    expect(bulk.json().data.message).toBe('2 records validated.');

    const reject = await app.inject({
      method: 'DELETE',
      url: '/api/validations/data/reject',
      headers: as.controleur,
      payload: { item: items[2], reason: 'Candidat absent à l’examen' },
    });
    expect(reject.statusCode).toBe(200);
    expect(await itemRow(items[2]!)).toMatchObject({ dataStatus: 'rejected', rejected: true, rejectionReason: 'Candidat absent à l’examen' });
    expect((await app.inject({ method: 'DELETE', url: '/api/validations/data/reject', headers: as.controleur, payload: { item: items[2] } })).statusCode).toBe(422);

    // The rejected list: reason, who, when, filtered; open to whoever may see rejected candidates.
    const list = await app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected?center=${schools[0]!.centreId}`, headers: as.backoffice_manager });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: items[2],
        rejection_reason: 'Candidat absent à l’examen',
        rejected_by: { id: expect.any(Number), name: 'Patrick Mukendi' },
        rejected_at: expect.any(String),
      }),
    ]);
    expect((await app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected?search=nobody`, headers: as.validateur })).json().meta.total).toBe(0);
  });
});

describe('the batch follows its candidates', () => {
  it('becomes ready for generation when its last candidate is validated, and pending again when one is reopened', async () => {
    const { id, items } = await makeBatch(3);
    await post('/api/validations/photos/validate', { items });
    await post('/api/validations/data/validate', { items: [items[0], items[1]] });
    expect(await batchStatus(id)).toBe('pending_validation');
    // The last pending one is rejected: the others are all validated.
    await app.inject({ method: 'DELETE', url: '/api/validations/data/reject', headers: as.validateur, payload: { item: items[2], reason: 'Doublon d’un autre lot' } });
    expect(await batchStatus(id)).toBe('ready_for_generation');
    const [moved] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'generation.status_changed'), eq(auditLog.subjectId, String(id))));
    expect(moved!.details).toMatchObject({ from: 'pending_validation', to: 'ready_for_generation' });
    // Each page's counters add up to the candidates: the rejected one waits for nobody, on either side.
    const ready = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}`, headers: as.validateur });
    expect(ready.json().generation.counts).toEqual({
      items: 3,
      photos: { pending: 0, validated: 2, rejected: 1 },
      data: { pending: 0, validated: 2, rejected: 1 },
      candidates: { pending: 0, validated: 2, rejected: 1 },
    });

    // Lifting the rejection makes that candidate pending again: the batch goes back.
    const reopened = await post('/api/validations/data/reopen', { item: items[2], generation_id: id });
    expect(reopened.json().data.generation.status).toBe('pending_validation');
    expect(await itemRow(items[2]!)).toMatchObject({ rejected: false, rejectionReason: null, dataStatus: 'pending', photoStatus: 'validated' });
    await post('/api/validations/data/validate', { item: items[2] });
    expect(await batchStatus(id)).toBe('ready_for_generation');
    await post('/api/validations/photos/reopen', { item: items[0] });
    expect(await batchStatus(id)).toBe('pending_validation');

    const overview = await app.inject({ method: 'GET', url: `/api/validations?search=${encodeURIComponent('à valider')}&per_page=100`, headers: as.controleur });
    expect(overview.statusCode).toBe(200);
    expect(overview.json().data.find((b: { id: number }) => b.id === id)).toMatchObject({
      status: 'pending_validation',
      counts: { items: 3, photos: { pending: 1, validated: 2, rejected: 0 }, data: { validated: 3 }, candidates: { pending: 1, validated: 2, rejected: 0 } },
    });
  });
});

describe('who may validate what, where and when', () => {
  it('keeps photos to validation.photo, refuses other roles, closed batches, other scopes and other batches’ candidates', async () => {
    const { id, items } = await makeBatch(2);
    // controleur: data only.
    expect((await post('/api/validations/photos/validate', { items }, as.controleur)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/validations/photos/${id}`, headers: as.controleur })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/validations/data/${id}`, headers: as.controleur })).statusCode).toBe(200);
    // backoffice_manager: no validation at all.
    expect((await post('/api/validations/data/validate', { items }, as.backoffice_manager)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/validations', headers: as.backoffice_manager })).statusCode).toBe(403);

    // Another province's staff: the batch and its candidates do not exist for them.
    expect((await app.inject({ method: 'GET', url: `/api/validations/photos/${id}`, headers: as.elsewhere })).statusCode).toBe(404);
    expect((await post('/api/validations/photos/validate', { items }, as.elsewhere)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/image-to-base64?image=${items[0]}`, headers: as.elsewhere })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/generations/${id}/items/rejected`, headers: as.elsewhere })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/validations?per_page=100', headers: as.elsewhere })).json().data.some((b: { id: number }) => b.id === id)).toBe(false);

    // A candidate of another batch is unknown to this one.
    const other = await makeBatch(1);
    expect((await post('/api/validations/photos/validate', { items: [items[0], other.items[0]] })).statusCode).toBe(404);
    expect((await post('/api/validations/data/validate', { item: other.items[0], generation_id: id })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/validations/photos/${id}/items/${other.items[0]}/photo`, headers: as.validateur })).statusCode).toBe(404);

    // A published batch accepts no validation change (409, translated).
    const done = await makeBatch(1, 'completed', true);
    const closed = await post('/api/validations/data/validate', { item: done.items[0], last_name: 'Autre' }, { ...as.validateur!, 'x-locale': 'en' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'conflict', errors: { generation_id: [expect.stringMatching(/does not accept validation/)] } });
    expect(
      (await app.inject({ method: 'DELETE', url: '/api/validations/data/reject', headers: as.validateur, payload: { item: done.items[0], reason: 'Trop tard' } })).statusCode,
    ).toBe(409);
    expect((await itemRow(done.items[0]!)).rejected).toBe(false);
  });
});

describe('validating every pending candidate of a filter', () => {
  const pending = (side: 'photos' | 'data', id: number, query = '', headers = as.validateur) =>
    app.inject({ method: 'GET', url: `/api/validations/${side}/${id}/pending${query}`, headers });
  const all = (side: 'photos' | 'data', id: number, payload: object = {}, headers = as.validateur) => post(`/api/validations/${side}/${id}/validate-all`, payload, headers);
  const auditsOf = (id: number, action: string) =>
    ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.subjectType, 'generation'), eq(auditLog.subjectId, String(id))));

  it('counts, then validates in one call only the pending candidates matching the filter, audited once with the count', async () => {
    const { id, items } = await makeBatch(6);
    // items[0] rejected, items[1] photo already validated, items[2] without a photo.
    expect((await post('/api/validations/photos/reject', { item: items[0], reason: 'Photo floue' })).statusCode).toBe(200);
    expect((await post('/api/validations/photos/validate', { item: items[1] })).statusCode).toBe(200);
    await ctx.db.update(generationItems).set({ photoKey: null }).where(eq(generationItems.id, items[2]!));

    // School B (items 1, 3, 5): 1 is validated already.
    const count = await pending('photos', id, `?institution=${schools[1]!.id}`);
    expect(count.statusCode).toBe(200);
    expect(count.json().data).toEqual({ count: 2, without_photo: 0 });
    const bySchool = await all('photos', id, { institution: schools[1]!.id }, { ...as.validateur!, 'x-locale': 'en' });
    expect(bySchool.statusCode).toBe(200);
    expect(bySchool.json().data).toMatchObject({
      message: '2 photos validated.',
      count: 2,
      without_photo: 0,
      generation: { id, counts: { photos: { validated: 3, rejected: 1 } } },
    });
    expect((await itemRow(items[3]!)).photoStatus).toBe('validated');
    expect((await itemRow(items[5]!)).photoStatus).toBe('validated');
    expect((await itemRow(items[4]!)).photoStatus).toBe('pending');
    const audits = await auditsOf(id, 'validation.photo_validated_all');
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toMatchObject({ count: 2, filter: { institution: schools[1]!.id } });

    // The rest: the rejected candidate and the one without a photo are left alone.
    expect((await pending('photos', id)).json().data).toEqual({ count: 1, without_photo: 1 });
    expect((await all('photos', id)).json().data).toMatchObject({ count: 1, without_photo: 1 });
    expect((await itemRow(items[0]!)).photoStatus).toBe('rejected');
    expect((await itemRow(items[2]!)).photoStatus).toBe('pending');
    // Nothing left: nothing done, nothing audited.
    expect((await all('photos', id)).json().data).toMatchObject({ count: 0, without_photo: 1 });
    expect(await auditsOf(id, 'validation.photo_validated_all')).toHaveLength(2);

    // Data, by an accent-free search: "nsele" is N'Sele (items[2]).
    expect((await pending('data', id, '?search=nsele')).json().data).toEqual({ count: 1, without_photo: 0 });
    expect((await all('data', id, { search: 'nsele' })).json().data.count).toBe(1);
    expect((await itemRow(items[2]!)).dataStatus).toBe('validated');
    // A state filter other than pending keeps nothing to validate.
    expect((await pending('data', id, '?status=validated')).json().data.count).toBe(0);
    const rest = await all('data', id, {}, { ...as.validateur!, 'x-locale': 'fr' });
    expect(rest.json().data).toMatchObject({ count: 4, message: '4 fiches validées.' });
    expect((await itemRow(items[0]!)).dataStatus).toBe('pending');
    // items[2] has no photo yet: the batch still waits.
    expect(await batchStatus(id)).toBe('pending_validation');
  });

  it('makes the batch ready for generation when nothing is left pending', async () => {
    const { id } = await makeBatch(3);
    expect((await all('photos', id)).json().data.count).toBe(3);
    expect(await batchStatus(id)).toBe('pending_validation');
    const data = await all('data', id);
    expect(data.json().data).toMatchObject({ count: 3, generation: { status: 'ready_for_generation' } });
    expect(await batchStatus(id)).toBe('ready_for_generation');
  });

  it('answers to the batch policy: permission, scope, state; and bounds what it is sent', async () => {
    const { id, items } = await makeBatch(2);
    // controleur validates data only; backoffice_manager nothing.
    expect((await all('photos', id, {}, as.controleur)).statusCode).toBe(403);
    expect((await pending('photos', id, '', as.controleur)).statusCode).toBe(403);
    expect((await all('data', id, {}, as.backoffice_manager)).statusCode).toBe(403);
    // Another province's staff: the batch does not exist for them.
    expect((await all('photos', id, {}, as.elsewhere)).statusCode).toBe(404);
    expect((await pending('data', id, '', as.elsewhere)).statusCode).toBe(404);
    expect((await all('photos', 99_999_999)).statusCode).toBe(404);
    expect((await itemRow(items[0]!)).photoStatus).toBe('pending');
    // A published batch accepts no change.
    const done = await makeBatch(1, 'completed');
    const closed = await all('data', done.id, {}, { ...as.validateur!, 'x-locale': 'en' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().errors.generation_id[0]).toMatch(/does not accept validation/);
    expect((await itemRow(done.items[0]!)).dataStatus).toBe('pending');
    // Bounds: unknown fields, too long a search, a non-numeric id.
    expect((await all('photos', id, { items: [items[0]] })).statusCode).toBe(422);
    expect((await all('photos', id, { search: 'x'.repeat(121) })).statusCode).toBe(422);
    expect((await pending('photos', id, '?option=abc')).statusCode).toBe(422);
    expect((await itemRow(items[0]!)).photoStatus).toBe('pending');
  });

  it('goes through a batch larger than one chunk (VALIDATE_ALL_CHUNK) in one call', async () => {
    const { id } = await makeBatch(1);
    const [first] = await ctx.db.select().from(generationItems).where(eq(generationItems.generationId, id));
    const extra = 2 * VALIDATE_ALL_CHUNK + 1;
    await ctx.db.execute(sql`
      insert into generation_items (generation_id, candidate_code, last_name, first_name, birth_date, birth_place, gender, option_id, institution_id, centre_id, percentage_tenths, photo_key)
      select ${id}, (30100000000000 + g)::text, 'Kabila', 'Nom' || g, '2007-02-01', 'Matadi', 'M', ${first!.optionId}, ${first!.institutionId}, ${first!.centreId}, 650, ${first!.photoKey}
      from generate_series(1, ${extra}) g`);
    try {
      expect((await pending('data', id)).json().data.count).toBe(extra + 1);
      expect((await all('data', id)).json().data).toMatchObject({ count: extra + 1, generation: { counts: { data: { pending: 0, validated: extra + 1 } } } });
      expect(await auditsOf(id, 'validation.data_validated_all')).toHaveLength(1);
    } finally {
      await ctx.db.delete(generationItems).where(eq(generationItems.generationId, id));
    }
  });

  it('bounds the page size (1 to 100)', async () => {
    const { id } = await makeBatch(3);
    const fifty = await app.inject({ method: 'GET', url: `/api/validations/data/${id}?per_page=50`, headers: as.validateur });
    expect(fifty.json().meta).toMatchObject({ per_page: 50, total: 3 });
    expect((await app.inject({ method: 'GET', url: `/api/validations/data/${id}?per_page=101`, headers: as.validateur })).statusCode).toBe(422);
    expect((await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?per_page=0`, headers: as.validateur })).statusCode).toBe(422);
  });
});

describe('uploading a photo for a candidate', () => {
  /** A multipart body with `photo` (or another field). */
  function form(data: Buffer, { field = 'photo', filename = 'photo.png', type = 'image/png' } = {}) {
    const boundary = '----sceau-photo-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const upload = (itemId: number, body: ReturnType<typeof form>, headers = as.validateur!) =>
    app.inject({ method: 'POST', url: `/api/validations/photos/${itemId}/upload`, headers: { ...headers, ...body.headers }, payload: body.payload });
  /** A phone-camera portrait, larger than the stored photo and of another shape. */
  const portrait = (width = 1200, height = 1500) =>
    sharp({ create: { width, height, channels: 3, background: '#c8a888' } })
      .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2.5}" r="${width / 4}" fill="#553322"/></svg>`) }])
      .png()
      .toBuffer();

  async function withoutPhoto() {
    const { id, items } = await makeBatch(2);
    await ctx.db.update(generationItems).set({ photoKey: null }).where(eq(generationItems.id, items[0]!));
    return { id, item: items[0]!, other: items[1]! };
  }

  it('stores it normalised as the import does (300 × 400 JPEG, 30 KB at most); it then waits for validation', async () => {
    const { id, item } = await withoutPhoto();
    // Without a photo it cannot be validated.
    expect((await post('/api/validations/photos/validate', { item })).json().errors.item[0]).toMatch(/n'a pas de photo/);

    const res = await upload(item, form(await portrait()));
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.message).toBe('Photo enregistrée : elle attend sa validation.');
    expect(data.items[0]).toMatchObject({
      id: item,
      photo_status: 'pending',
      photo_url: expect.stringMatching(new RegExp(`^/api/validations/photos/${id}/items/${item}/photo\\?v=`)),
    });
    const row = await itemRow(item);
    expect(row.photoKey).toMatch(new RegExp(`^photos/${id}/${row.candidateCode}-[0-9a-f]{16}-[0-9a-f]{8}\\.jpg$`));
    const stored = (await services.storage.get(row.photoKey!))!;
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 300, 400]);
    expect(stored.length).toBeLessThanOrEqual(30_000);
    const served = await app.inject({ method: 'GET', url: data.items[0].photo_url, headers: as.validateur });
    expect(served.rawPayload.equals(stored)).toBe(true);
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'validation.photo_uploaded'), eq(auditLog.subjectId, String(item))));
    expect(audit!.details).toMatchObject({ generation_id: id, before: null, after: row.photoKey, source: 'upload' });

    // Now it can be validated; a better photo later sends it back to pending and replaces the upload.
    expect((await post('/api/validations/photos/validate', { item })).statusCode).toBe(200);
    const again = await upload(item, form(await portrait(900, 900), { filename: 'photo.webp', type: 'image/webp' }));
    expect(again.statusCode).toBe(200);
    const replaced = await itemRow(item);
    expect(replaced.photoStatus).toBe('pending');
    expect(replaced.photoKey).not.toBe(row.photoKey);
    expect(await services.storage.get(row.photoKey!)).toBeNull();
  });

  it('refuses what is not a usable image, with translated messages, and leaves the candidate as it was', async () => {
    const { item } = await withoutPhoto();
    const text = await upload(item, form(Buffer.from('nom;prenom\nKabongo;Aline\n'), { filename: 'liste.csv', type: 'text/csv' }), { ...as.validateur!, 'x-locale': 'en' });
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.photo[0]).toBe('The image cannot be read or is not a JPEG, PNG, WebP, GIF or HEIC');
    // A TIFF is an image, but not one phones send (GIF and HEIC are read since ADR 0147).
    const tiff = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#888' } })
      .tiff()
      .toBuffer();
    expect((await upload(item, form(tiff, { filename: 'p.tif', type: 'image/tiff' }))).json().errors.photo[0]).toBe(
      "L'image est illisible ou n'est pas un JPEG, PNG, WebP, GIF ou HEIC",
    );
    const tiny = await upload(item, form(await portrait(60, 80)));
    expect(tiny.statusCode).toBe(422);
    expect(tiny.json().errors.photo[0]).toBe("L'image doit mesurer au moins 100 × 100 pixels");
    const none = await upload(item, form(await portrait(), { field: 'file' }));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.photo[0]).toBe('Un fichier est requis');
    const huge = await upload(item, form(Buffer.alloc(10 * 1024 * 1024 + 1, 1)));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().errors.photo[0]).toBe("L'image ne doit pas dépasser 10 Mo");
    const json = await app.inject({ method: 'POST', url: `/api/validations/photos/${item}/upload`, headers: as.validateur, payload: { photo: 'x' } });
    expect(json.statusCode).toBe(415);
    expect((await itemRow(item)).photoKey).toBeNull();
  });

  /** Every file under the batch's photo folder, by key, with its bytes. */
  async function photoFiles(id: number): Promise<Record<string, Buffer>> {
    const root = ctx.config.filesDir;
    const entries = await readdir(path.join(root, 'photos', String(id)), { recursive: true, withFileTypes: true }).catch(() => []);
    const files: Record<string, Buffer> = {};
    for (const e of entries) if (e.isFile()) files[path.relative(root, path.join(e.parentPath, e.name))] = await readFile(path.join(e.parentPath, e.name));
    return files;
  }

  it('changes nothing of the candidate when the upload cannot be stored whole (ADR 0060, amendment of 2026-11-27)', async () => {
    const { id, items } = await makeBatch(1);
    const before = await itemRow(items[0]!);
    // The candidate's photo as the import wrote it, with its original.
    await services.storage.put(originalPhotoKey(id, before.candidateCode), Buffer.from('the imported original'));
    const files = await photoFiles(id);
    // The store fails on the original (a full disk, a bucket outage).
    const put = services.storage.put;
    services.storage.put = async (key, data) => {
      if (key.includes('/originals/')) throw new Error('ENOSPC: no space left on device');
      return put.call(services.storage, key, data);
    };
    try {
      expect((await upload(items[0]!, form(await portrait()))).statusCode).toBe(500);
    } finally {
      services.storage.put = put;
    }
    expect(await itemRow(items[0]!)).toEqual(before);
    expect(await photoFiles(id)).toEqual(files);
  });

  it('replaces the photo and its original together, logs a superseded file it could not delete, and the upload stands', async () => {
    const { id, items } = await makeBatch(1);
    const before = await itemRow(items[0]!);
    await services.storage.put(originalPhotoKey(id, before.candidateCode), Buffer.from('the imported original'));
    // The store refuses every deletion (a permission changed, a bucket policy).
    const storage = Object.create(services.storage) as FileStorage;
    storage.delete = async () => {
      throw new Error('EACCES: permission denied');
    };
    const warn = vi.fn();
    const actor = await actorOf(ctx.db, 'validateur@sceau.example');
    const result = await new ValidationsService(ctx.db, storage, { warn }).uploadTo(actor, items[0]!, await portrait());
    expect(result.changed).toEqual([items[0]]);
    const after = await itemRow(items[0]!);
    expect(after.photoKey).not.toBe(before.photoKey);
    // The new original beside the new photo, served to the editor.
    const original = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}/items/${items[0]}/photo/original`, headers: as.validateur });
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals((await services.storage.get(originalKeyOf(after.photoKey!)))!)).toBe(true);
    expect(await sharp(original.rawPayload).metadata()).toMatchObject({ width: 1200, height: 1500 });
    // The imported photo and its original are left, each logged for an operator to find.
    for (const key of [before.photoKey!, originalPhotoKey(id, before.candidateCode)]) {
      expect(warn).toHaveBeenCalledWith({ err: new Error('EACCES: permission denied'), key }, expect.any(String));
      expect(await services.storage.get(key)).not.toBeNull();
    }
  });

  it('keeps uploads to validation.photo, the scope, open batches and candidates not rejected', async () => {
    const { id, item, other } = await withoutPhoto();
    const photo = form(await portrait());
    expect((await upload(item, photo, as.controleur)).statusCode).toBe(403);
    expect((await upload(item, photo, as.backoffice_manager)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/validations/photos/${item}/upload`, headers: photo.headers, payload: photo.payload })).statusCode).toBe(401);
    const elsewhere = await upload(item, photo, as.elsewhere);
    expect(elsewhere.statusCode).toBe(404);
    expect((await upload(999_999_999, photo)).statusCode).toBe(404);

    expect((await post('/api/validations/photos/reject', { item: other, reason: 'Photo floue' })).statusCode).toBe(200);
    const rejected = await upload(other, photo);
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().errors.item).toBeDefined();

    await ctx.db.update(generations).set({ status: 'in_progress' }).where(eq(generations.id, id));
    const closed = await upload(item, photo);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().errors.generation_id).toBeDefined();
    expect((await itemRow(item)).photoKey).toBeNull();
  });
});

describe("the lists' filters", () => {
  it("offers the schools, centres and options of the batch's candidates, within the scope", async () => {
    const { id } = await makeBatch(4);
    const res = await app.inject({ method: 'GET', url: `/api/validations/${id}/filters`, headers: as.validateur });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const names = async (table: typeof institutions, ids: number[]) => (await ctx.db.select({ id: table.id, name: table.name }).from(table)).filter((r) => ids.includes(r.id));
    expect(data.institutions).toEqual(
      (
        await names(
          institutions,
          schools.map((s) => s.id),
        )
      ).sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(data.centres.map((c: { id: number }) => c.id)).toEqual([schools[0]!.centreId]);
    expect(data.options.map((o: { id: number }) => o.id).sort()).toEqual([...new Set(schools.map((s) => s.optionId))].sort());
    // Each filter value finds candidates.
    for (const school of data.institutions) {
      const page = await app.inject({ method: 'GET', url: `/api/validations/photos/${id}?institution=${school.id}`, headers: as.validateur });
      expect(page.json().meta.total).toBe(2);
    }
    // Whoever sees one of the lists may read them; nobody else; not outside the scope.
    expect((await app.inject({ method: 'GET', url: `/api/validations/${id}/filters`, headers: as.controleur })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/validations/${id}/filters`, headers: as.backoffice_manager })).statusCode).toBe(200);
    await ctx.db.insert(users).values({ name: 'Personne', email: 'sans-role@sceau.example', passwordHash: await hashPassword('Sceau-Demo-2026'), verifiedAt: new Date() });
    expect((await app.inject({ method: 'GET', url: `/api/validations/${id}/filters`, headers: await bearer('sans-role@sceau.example') })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/validations/${id}/filters`, headers: as.elsewhere })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/validations/999999/filters', headers: as.validateur })).statusCode).toBe(404);
  });
});
