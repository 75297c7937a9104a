import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChainTestApp, type ChainTestContext } from '../../../test/chain.ts';
import { DEMO_PASSWORD, signIn } from '../../../test/helpers.ts';
import { buildApp, type App } from '../../app.ts';
import {
  archiveMailings,
  auditLog,
  broadcastDeliveries,
  broadcasts,
  diplomas,
  generationItems,
  generations,
  institutions,
  oneTimeCodes,
  roles,
  userRoles,
  users,
} from '../../db/schema.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { seedDemoBatch } from '../../seed/demo-batch.ts';
import { createServices, type Services } from '../../services.ts';
import { hashPassword } from '../accounts/auth-service.ts';
import type { OpenChain } from '../chain/open-chain.ts';
import { listZipEntries } from '../imports/zip-archive.ts';
import type { OutboxMessage } from '../messaging/outbox.ts';
import { DistributionService } from './distribution-service.ts';
import { StaffSignInLinks } from '../accounts/sign-in-links.ts';
import { OneTimeLinks } from './one-time-links.ts';

let ctx: ChainTestContext;
let chain: OpenChain;
let services: Services;
let queue: JobQueue;
let app: App;
let batchId: number;
/** The demo batch's candidates in order: [0] e-mail and phone, [1] e-mail, [2] phone, [3] revoked diploma (with e-mail), the rest no contact. */
let items: (typeof generationItems.$inferSelect & { diplomaId: string })[];
let otherBatchId: number;
const as: Record<'root' | 'admin' | 'manager' | 'validateur' | 'outsider', Record<string, string>> = {} as never;

const CONTACTS = [
  { email: 'aline.mukendi@example.cd', phone: '+243810000101' },
  { email: 'joel.kabongo@example.cd', phone: null },
  { email: null, phone: '+243810000103' },
  { email: 'revoque@example.cd', phone: null },
];

beforeAll(async () => {
  ctx = await createChainTestApp({ PUBLIC_URL: 'https://sceau.example' });
  chain = ctx.chain;
  // Jobs are queued for real; the tests run their handlers themselves, the way a worker would.
  queue = new JobQueue(ctx.databaseUrl, ctx.log);
  services = createServices(ctx.db, ctx.config, { identity: { keys: ctx.keys, chain }, queue });
  queue.define(...Object.values(services.distribution.jobs));
  await queue.start({ work: false });
  app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();

  batchId = await seedDemoBatch(ctx.db, services.storage, services.issuing!);
  const rows = await ctx.db
    .select({ item: generationItems, diplomaId: diplomas.id })
    .from(generationItems)
    .innerJoin(diplomas, eq(diplomas.itemId, generationItems.id))
    .where(eq(generationItems.generationId, batchId))
    .orderBy(asc(generationItems.id));
  for (const [index, contact] of CONTACTS.entries()) await ctx.db.update(generationItems).set(contact).where(eq(generationItems.id, rows[index]!.item.id));
  await ctx.db.update(diplomas).set({ revokedAt: new Date(), revocationReason: 'test' }).where(eq(diplomas.id, rows[3]!.diplomaId));
  items = rows.map((r, index) => ({ ...r.item, ...(CONTACTS[index] ?? {}), diplomaId: r.diplomaId }));

  const [batch] = await ctx.db.select().from(generations).where(eq(generations.id, batchId));
  const [other] = await ctx.db
    .insert(generations)
    .values({
      ...batch!,
      id: undefined,
      title: 'Lot en validation',
      status: 'pending_validation',
      signatureStatus: 'not_started',
      merkleRoot: null,
      anchorTxHash: null,
      publishedAt: null,
    })
    .returning();
  otherBatchId = other!.id;

  // A root-role account bound to another school: it must not see the batch.
  const [elsewhere] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E2'));
  const [outsider] = await ctx.db
    .insert(users)
    .values({
      name: 'Ailleurs',
      email: 'ailleurs@sceau.example',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      verifiedAt: new Date(),
      institutionId: elsewhere!.id,
      centreId: elsewhere!.centreId,
      educProvinceId: elsewhere!.educProvinceId,
    })
    .returning();
  const [rootRole] = await ctx.db.select().from(roles).where(eq(roles.name, 'root'));
  await ctx.db.insert(userRoles).values({ userId: outsider!.id, roleId: rootRole!.id });
  expect(batch!.institutionId).not.toBe(elsewhere!.id);

  for (const [key, email] of [
    ['root', 'root@sceau.example'],
    ['admin', 'admin@sceau.example'],
    ['manager', 'backoffice_manager@sceau.example'],
    ['validateur', 'validateur@sceau.example'],
    ['outsider', 'ailleurs@sceau.example'],
  ] as const) {
    as[key] = { authorization: `Bearer ${await signIn(ctx, email)}` };
  }
}, 180_000);

afterAll(async () => {
  await queue?.stop();
  await app?.close();
  await ctx?.close();
});

const outbox = (to: string): Promise<OutboxMessage[]> => services.messenger.outbox.list({ to, limit: 200 });
const lastTo = async (to: string) => (await outbox(to))[0];
const linkIn = (text: string, pattern: RegExp) => {
  const match = text.match(pattern);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[1]!;
};
const tokenIn = (text: string) => decodeURIComponent(linkIn(text, /\/direct-auth\?token=(\S+)/));
const exchange = (token: string, locale = 'fr') => app.inject({ method: 'POST', url: '/api/direct-auth', headers: { 'x-locale': locale }, payload: { token } });
const broadcast = (id: number, headers: Record<string, string>) => app.inject({ method: 'POST', url: `/api/generations/${id}/broadcast`, headers });
const latest = async (id: number) => (await app.inject({ method: 'GET', url: `/api/generations/${id}/broadcast`, headers: as.root })).json().data;
const runBroadcast = (broadcastId: number, run = 'run') => services.distribution.jobs.broadcast.handle({ broadcastId }, { id: run });

describe('broadcasting a published batch to its candidates', () => {
  it('is refused without broadcast.send, outside the scope (as not found), and before publication or while one runs', async () => {
    expect((await app.inject({ method: 'POST', url: `/api/generations/${batchId}/broadcast` })).statusCode).toBe(401);
    const admin = await broadcast(batchId, as.admin);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().code).toBe('forbidden_permission');
    expect((await broadcast(batchId, as.outsider)).statusCode).toBe(404);
    expect((await broadcast(999_999, as.root)).statusCode).toBe(404);
    const early = await broadcast(otherBatchId, as.root);
    expect(early.statusCode).toBe(409);
    expect(early.json().errors.generation_id).toEqual(['Seul un lot publié (terminé) peut être diffusé aux candidats']);
  });

  it('notifies every candidate with a contact once, by e-mail and SMS, with a verification link and a one-time sign-in link', async () => {
    const res = await broadcast(batchId, { ...as.root, 'x-locale': 'en' });
    expect(res.statusCode).toBe(202);
    const { message, broadcast: queued } = res.json().data;
    expect(message).toBe('Broadcast notifications have been sent successfully.');
    // Twelve diplomas, one revoked.
    expect(queued).toMatchObject({ status: 'queued', total: 11, sent: 0 });
    const again = await broadcast(batchId, as.root);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.generation_id[0]).toMatch(/déjà en cours/);

    await runBroadcast(queued.id);
    expect(await latest(batchId)).toMatchObject({ id: queued.id, status: 'completed', total: 11, sent: 3, skipped: 8, failed: 0 });

    // The first candidate: an e-mail and an SMS, in the language of the request.
    const mail = (await lastTo(CONTACTS[0]!.email!))!;
    const sms = (await lastTo(CONTACTS[0]!.phone!))!;
    expect(mail.subject).toBe('Your electronic diploma is available');
    expect(sms.channel).toBe('sms');
    const verifyUrl = linkIn(mail.text, /(https:\/\/sceau\.example\/verify\/\S+)/);
    expect(verifyUrl).toBe(`https://sceau.example/verify/${items[0]!.diplomaId}`);
    expect(sms.text).toContain(verifyUrl);
    // The verification link works.
    const verified = await app.inject({ method: 'GET', url: `/api/verify/${verifyUrl.split('/').pop()}` });
    expect(verified.json().data.verdict).toBe('authentic');
    // One token per candidate and broadcast, in both messages; it opens the diploma once.
    const token = tokenIn(mail.text);
    expect(tokenIn(sms.text)).toBe(token);
    const opened = await exchange(token);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ kind: 'candidate', diploma_id: items[0]!.diplomaId });
    const reused = await exchange(token, 'en');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.token).toEqual(['This sign-in link was already used (or a newer link replaced it): each link works only once']);

    // E-mail only, SMS only; the revoked diploma's holder and candidates without contact get nothing.
    expect(tokenIn((await lastTo(CONTACTS[1]!.email!))!.text)).not.toBe(token);
    expect((await lastTo(CONTACTS[2]!.phone!))!.text).toContain(`/verify/${items[2]!.diplomaId}`);
    expect(await outbox(CONTACTS[3]!.email!)).toHaveLength(0);
    const notified = await ctx.db
      .select({ id: generationItems.id })
      .from(generationItems)
      .where(and(eq(generationItems.generationId, batchId), isNotNull(generationItems.broadcastAt)));
    expect(notified.map((r) => r.id).sort()).toEqual([items[0]!.id, items[1]!.id, items[2]!.id].sort());
    const audits = await ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'generation'), eq(auditLog.subjectId, String(batchId))));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['generation.broadcast_requested', 'generation.broadcast_completed']));

    // The job run again (a retry, an expired lease): nobody is notified twice.
    const before = (await services.messenger.outbox.list({ limit: 200 })).length;
    await runBroadcast(queued.id, 'again');
    expect((await services.messenger.outbox.list({ limit: 200 })).length).toBe(before);
  });

  it('resumes a broadcast cut short where it stopped, even with two workers at once; a later broadcast is a new one', async () => {
    const res = await broadcast(batchId, as.root);
    expect(res.statusCode).toBe(202);
    const { id } = res.json().data.broadcast;
    // As if a crashed run had notified the first candidate already.
    await ctx.db.update(broadcasts).set({ status: 'running' }).where(eq(broadcasts.id, id));
    await ctx.db.insert(broadcastDeliveries).values({ broadcastId: id, itemId: items[0]!.id, status: 'sent', emailSent: true, smsSent: true });
    const counts = async () => Promise.all([CONTACTS[0]!.email!, CONTACTS[1]!.email!, CONTACTS[2]!.phone!].map(async (to) => (await outbox(to)).length));
    const [first, second, third] = await counts();
    await Promise.all([runBroadcast(id, 'worker-1'), runBroadcast(id, 'worker-2')]);
    expect(await counts()).toEqual([first, second! + 1, third! + 1]);
    expect(await latest(batchId)).toMatchObject({ id, status: 'completed', sent: 3, skipped: 8 });
    const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(broadcasts).where(eq(broadcasts.generationId, batchId));
    expect(n).toBe(2);
  });

  it("answers the spec's failure message when the broadcast cannot be queued, and leaves none pending", async () => {
    // The queue's database refuses the job, once.
    vi.spyOn(queue, 'send').mockRejectedValueOnce(new Error('connection terminated'));
    const res = await broadcast(batchId, { ...as.root, 'x-locale': 'en' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'service_unavailable', message: 'Broadcast not sent. Please try again later.' });
    expect(await latest(batchId)).toMatchObject({ status: 'failed' });
    // Nothing blocks the next try.
    const retry = await broadcast(batchId, as.root);
    expect(retry.statusCode).toBe(202);
    await runBroadcast(retry.json().data.broadcast.id);
  });

  it('lets staff who may view the batch follow it, not others', async () => {
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}/broadcast`, headers: as.validateur })).json().data).toMatchObject({ status: 'completed' });
    expect((await app.inject({ method: 'GET', url: `/api/generations/${batchId}/broadcast`, headers: as.outsider })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/generations/${otherBatchId}/broadcast`, headers: as.root })).json().data).toBeNull();
  });
});

describe('direct sign-in links', () => {
  it('tells unknown, malformed and expired links apart, translated', async () => {
    for (const token of ['nonsense', '12.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '']) {
      const res = await exchange(token);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.token).toEqual(["Ce lien de connexion n'est pas valide : vérifiez qu'il est complet"]);
    }
    const token = await new StaffSignInLinks(new OneTimeLinks(ctx.db), ctx.config.publicUrl).create(
      ctx.db,
      (await ctx.db.select().from(users).where(eq(users.email, 'validateur@sceau.example')))[0]!.id,
    );
    await ctx.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.id, Number(token.split('.')[0])));
    expect((await exchange(token, 'en')).json().errors.token).toEqual(['This sign-in link has expired']);
  });

  it('signs a staff member in from a link an administrator sent: once, the newest link only', async () => {
    const [validateur] = await ctx.db.select().from(users).where(eq(users.email, 'validateur@sceau.example'));
    const send = (headers: Record<string, string>, id = validateur!.id) => app.inject({ method: 'POST', url: `/api/users/${id}/sign-in-link`, headers });
    expect((await send(as.validateur)).statusCode).toBe(403);
    const [root] = await ctx.db.select().from(users).where(eq(users.email, 'root@sceau.example'));
    // Only root may act on a root account.
    expect((await send(as.admin, root!.id)).json().code).toBe('forbidden_role');
    expect((await send(as.admin, 999_999)).statusCode).toBe(404);

    const first = await send(as.admin);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ channel: 'email', message: expect.stringContaining('par e-mail') });
    const firstToken = tokenIn((await lastTo('validateur@sceau.example'))!.text);
    expect((await send(as.admin)).statusCode).toBe(200);
    const message = (await lastTo('validateur@sceau.example'))!;
    expect(message.text).toContain('https://sceau.example/direct-auth?token=');
    const token = tokenIn(message.text);
    expect((await exchange(firstToken)).json().errors.token[0]).toMatch(/déjà servi/);

    const signedIn = await exchange(token);
    expect(signedIn.statusCode).toBe(200);
    const session = signedIn.json();
    expect(session).toMatchObject({ kind: 'staff', token_type: 'Bearer', expires_in: ctx.config.tokenTtlMinutes * 60 });
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${session.access_token}` } });
    expect(me.json().data.data.email).toBe('validateur@sceau.example');
    expect((await exchange(token)).statusCode).toBe(422);
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.sign_in_link_sent'), eq(auditLog.subjectId, String(validateur!.id))));
    expect(audit).toHaveLength(2);
  });
});

describe('sending by e-mail', () => {
  const byMail = (payload: Record<string, unknown>, headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/items/by-mail', headers, payload });
  const archiveByMail = (payload: Record<string, unknown>, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/generations/archive-by-mail', headers, payload });

  it('needs generation.share.email, a valid e-mail, a published batch in the scope and a diploma not revoked', async () => {
    expect((await byMail({ item_id: items[0]!.id, email: 'x@example.cd' }, as.admin)).statusCode).toBe(403);
    const bad = await byMail({ item_id: items[0]!.id, email: 'pas-une-adresse' }, as.manager);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.email).toEqual(["Saisissez une adresse e-mail valide pour l'envoi"]);
    expect((await byMail({ item_id: items[0]!.id }, { ...as.manager, 'x-locale': 'en' })).json().errors.email).toEqual(['Enter a valid e-mail address to send to']);
    expect((await byMail({ item_id: items[0]!.id, email: 'x@example.cd' }, as.outsider)).statusCode).toBe(404);
    expect((await byMail({ item_id: items[3]!.id, email: 'x@example.cd' }, as.manager)).json().errors.item_id).toEqual(['Ce diplôme est révoqué : il ne peut pas être envoyé']);
    const [pending] = await ctx.db
      .insert(generationItems)
      .values({ ...items[0]!, id: undefined, generationId: otherBatchId, candidateCode: '20269999999999' })
      .returning();
    expect((await byMail({ item_id: pending!.id, email: 'x@example.cd' }, as.manager)).json().errors.item_id).toEqual(["Seuls les diplômes d'un lot publié peuvent être envoyés"]);
    expect((await archiveByMail({ generation_id: batchId, email: 'nope' }, as.manager)).statusCode).toBe(422);
    expect((await archiveByMail({ generation_id: batchId, email: 'x@example.cd' }, as.outsider)).statusCode).toBe(404);
    expect((await archiveByMail({ generation_id: otherBatchId, email: 'x@example.cd' }, as.manager)).statusCode).toBe(409);
  });

  it('sends one diploma with its signed PDF attached, and audits it', async () => {
    const res = await byMail({ item: items[1]!.id, mail: 'Universite@Example.org' }, as.manager);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toBe('Le diplôme a été envoyé à universite@example.org.');
    const message = (await lastTo('universite@example.org'))!;
    expect(message.text).toContain(`https://sceau.example/verify/${items[1]!.diplomaId}`);
    expect(message.attachments).toHaveLength(1);
    const attached = await readFile(path.join(services.messenger.outbox.dir, message.attachments![0]!.file));
    const [diploma] = await ctx.db.select().from(diplomas).where(eq(diplomas.id, items[1]!.diplomaId));
    expect(attached.equals((await services.storage.get(diploma!.pdfKey!))!)).toBe(true);
    expect(message.attachments![0]).toMatchObject({ filename: `diplome-${items[1]!.candidateCode}.pdf`, content_type: 'application/pdf' });
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'diploma.sent_by_mail'), eq(auditLog.subjectId, items[1]!.diplomaId)));
    expect(audit?.details).toMatchObject({ email: 'universite@example.org' });
  });

  it("sends a small batch's zip attached, once even if the job runs again", async () => {
    const res = await archiveByMail({ generation_id: batchId, email: 'ambassade@example.org' }, { ...as.manager, 'x-locale': 'en' });
    expect(res.statusCode).toBe(202);
    expect(res.json().data.message).toBe("The batch's zip will be prepared and sent to ambassade@example.org in a few moments.");
    const [mailing] = await ctx.db.select().from(archiveMailings).where(eq(archiveMailings.email, 'ambassade@example.org'));
    await services.distribution.jobs.archiveMail.handle({ mailingId: mailing!.id }, { id: 'zip-1' });
    await services.distribution.jobs.archiveMail.handle({ mailingId: mailing!.id }, { id: 'zip-2' });
    const messages = await outbox('ambassade@example.org');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.subject).toBe(`Diplomas of batch Lot de démonstration — Session 2026`);
    const zip = await readFile(path.join(services.messenger.outbox.dir, messages[0]!.attachments![0]!.file));
    const entries = await listZipEntries(zip);
    expect(entries).toHaveLength(12);
    expect(entries.every((e) => e.fileName.endsWith('.pdf'))).toBe(true);
    expect((await ctx.db.select().from(archiveMailings).where(eq(archiveMailings.id, mailing!.id)))[0]).toMatchObject({ status: 'sent', delivery: 'attachment' });
  });

  it('sends a link instead when the zip is large; the link streams the zip until it expires', async () => {
    // The same service with a 1 KB attachment limit, so the demo batch counts as large.
    const small = new DistributionService(ctx.db, ctx.config, services.storage, services.messenger, new OneTimeLinks(ctx.db), { info: () => {}, warn: () => {} }, queue, 1024);
    expect((await archiveByMail({ generation_id: batchId, email: 'grand@example.org' }, as.manager)).statusCode).toBe(202);
    const [mailing] = await ctx.db.select().from(archiveMailings).where(eq(archiveMailings.email, 'grand@example.org'));
    await small.runArchiveMailing(mailing!.id);
    const message = (await lastTo('grand@example.org'))!;
    expect(message.attachments).toBeUndefined();
    expect(message.text).toMatch(/valable 7 jours/);
    const url = linkIn(message.text, /(https:\/\/sceau\.example\/api\/archive-downloads\/\S+)/);
    const download = await app.inject({ method: 'GET', url: url.replace('https://sceau.example', '') });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(await listZipEntries(download.rawPayload)).toHaveLength(12);
    // Reusable until it expires.
    expect((await app.inject({ method: 'GET', url: url.replace('https://sceau.example', '') })).statusCode).toBe(200);
    const token = decodeURIComponent(url.split('/').pop()!);
    await ctx.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.id, Number(token.split('.')[0])));
    const expired = await app.inject({ method: 'GET', url: url.replace('https://sceau.example', '') });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().errors.token[0]).toMatch(/a expiré/);
    // A zip link is no sign-in link.
    expect((await exchange(token)).statusCode).toBe(422);
  });
});
