import {
  envelope,
  GENERATION_STATUSES,
  launchSignaturesResponse,
  SIGNATURE_KINDS,
  SIGNATURE_STATUSES,
  startGenerationRequest,
  type Locale,
  type SignatureKind,
} from '@sceau/contracts';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { diplomas, generations, officialSignatures, users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/audit-service.ts';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { batchFor } from './batch-access.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';

const tags = ['generations'];
/** How long a verified launch code allows the launch. */
const LAUNCH_GRANT_MINUTES = 10;
const generationId = z.coerce.number().int().positive();

/** Where a code went, without giving the whole address away: "ad•••@sceau.example", "+243•••••0002". */
export function maskContact(contact: string): string {
  if (contact.includes('@')) {
    const [name = '', domain = ''] = contact.split('@');
    return `${name.slice(0, 2)}•••@${domain}`;
  }
  return `${contact.slice(0, 4)}•••••${contact.slice(-4)}`;
}

const statusResponse = envelope(
  z.object({
    id: z.number().int(),
    status: z.enum(GENERATION_STATUSES),
    signature_status: z.enum(SIGNATURE_STATUSES),
    progress: z.object({ done: z.number().int(), total: z.number().int(), percent: z.number() }),
    last_error: z.string().nullable(),
  }),
);
const messageResponse = envelope(z.object({ message: z.string() }));

/**
 * Launching, following and publishing a batch (spec: /otp-generation, /generating-op): a one-time
 * code sent to the signed-in user and verified for this batch, then the generation job, its
 * progress, the official signature (anchoring job), and cancellation before the signature starts.
 */
export const launchRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { db, services }) => {
  const launch = { anyPermission: ['generation.generate'], section: 'generation' } as const;

  /** Whether some of the batch's diplomas are printed already (a relaunch after a failure): their signatures are fixed. */
  async function hasPrinted(id: number): Promise<boolean> {
    const [printed] = await db
      .select({ id: diplomas.id })
      .from(diplomas)
      .where(and(eq(diplomas.generationId, id), isNotNull(diplomas.pdfKey)))
      .limit(1);
    return printed !== undefined;
  }

  /**
   * The official signatures a launch puts on the batch's diplomas: those asked for, each active on
   * /settings; else the batch's earlier choice; else every active signature. A choice made for
   * diplomas already printed cannot change (the batch would carry two sets of signatures).
   */
  async function chooseSignatures(batch: typeof generations.$inferSelect, asked: SignatureKind[] | undefined): Promise<SignatureKind[]> {
    const active = (await db.select({ kind: officialSignatures.kind }).from(officialSignatures)).map((s) => s.kind);
    const earlier = batch.signatureKinds as SignatureKind[] | null;
    if (!asked) return earlier ?? (active as SignatureKind[]);
    const inactive = asked.filter((kind) => !active.includes(kind));
    if (inactive.length) throw fieldError('signatures', 'field.launch_signature_inactive');
    const same = earlier !== null && earlier.length === asked.length && asked.every((kind) => earlier.includes(kind));
    if (earlier !== null && !same && (await hasPrinted(batch.id))) throw fieldError('signatures', 'field.launch_signatures_locked');
    return asked;
  }

  function requireQueue() {
    if (!services.queue || !services.jobs) throw new AppError('internal_error');
    return { queue: services.queue, jobs: services.jobs };
  }

  app.get(
    '/generations/send-otp',
    {
      config: { access: launch },
      schema: {
        tags,
        summary: 'Send the signed-in user a one-time code to launch (or relaunch, after a failure) a batch',
        querystring: z.object({ generation_id: generationId }),
        response: {
          200: envelope(z.object({ message: z.string(), channel: z.enum(['sms', 'email']), destination: z.string(), resend_in: z.number().int(), expires_in: z.number().int() })),
        },
      },
    },
    async (request) => {
      const batch = await batchFor(db, actorOf(request), request.query.generation_id, generationPolicy.launch);
      const [me] = await db.select().from(users).where(eq(users.id, request.user!.id));
      const destination = me!.email ?? me!.phone;
      if (!destination) throw new AppError('conflict');
      const sent = await services.otp.send({ destination, purpose: `generation_launch:${batch.id}`, userId: me!.id, locale: me!.locale as Locale, template: 'otp_generation' });
      return {
        data: {
          message: request.t('messages:code_sent_to_you', { minutes: Math.round(sent.expiresIn / 60) }),
          channel: sent.channel,
          destination: maskContact(destination),
          resend_in: sent.resendIn,
          expires_in: sent.expiresIn,
        },
      };
    },
  );

  app.post(
    '/generations/verify-otp',
    {
      config: { access: launch },
      schema: {
        tags,
        summary: 'Check the launch code; a right one allows this user to launch this batch for a few minutes',
        body: z.object({
          code: z
            .string()
            .trim()
            .regex(/^\d{6}$/, { error: 'field.otp_format' }),
          generation_id: generationId,
        }),
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const batch = await batchFor(db, actorOf(request), request.body.generation_id, generationPolicy.launch);
      const [me] = await db.select().from(users).where(eq(users.id, request.user!.id));
      const destination = me!.email ?? me!.phone ?? '';
      try {
        await services.otp.verify({ destination, purpose: `generation_launch:${batch.id}`, code: request.body.code });
      } catch (error) {
        // The launch page sends `code`: name the field it knows.
        if (error instanceof AppError && error.options.fields?.otp) throw new AppError('validation_failed', { fields: { code: error.options.fields.otp } });
        throw error;
      }
      await services.otp.grant(me!.id, `generation_launch_ok:${batch.id}`, LAUNCH_GRANT_MINUTES);
      await recordAudit(db, { action: 'generation.launch_code_verified', subjectType: 'generation', subjectId: batch.id }, request);
      return { data: { message: request.t('messages:launch_code_accepted') } };
    },
  );

  for (const path of ['/start-generation-process', '/generations/start']) {
    app.post(
      path,
      {
        config: { access: launch },
        schema: {
          tags,
          summary: 'Launch the generation of a batch (after its one-time code), with the official signatures its diplomas carry',
          body: startGenerationRequest,
          response: { 200: messageResponse },
        },
      },
      async (request) => {
        const { queue, jobs } = requireQueue();
        const actor = actorOf(request);
        const batch = await batchFor(db, actor, request.body.generation_id, generationPolicy.launch);
        // Checked before the code is spent: a wrong choice does not cost a new code.
        const signatureKinds = await chooseSignatures(batch, request.body.signatures);
        if (!(await services.otp.consumeGrant(actor.id, `generation_launch_ok:${batch.id}`))) throw fieldError('code', 'field.launch_code_required');
        // What /settings holds now is what this batch prints, even if a signature is replaced later;
        // a relaunch of a batch with printed diplomas keeps the snapshot those were printed with.
        const signatureSnapshot =
          batch.signatureSnapshot && (await hasPrinted(batch.id))
            ? batch.signatureSnapshot
            : (await db.select().from(officialSignatures).where(inArray(officialSignatures.kind, signatureKinds))).map((s) => ({
                kind: s.kind,
                signerName: s.signerName,
                signerTitle: s.signerTitle,
                imageKey: s.imageKey,
                imageSha256: s.imageSha256,
              }));
        await db.transaction(async (tx) => {
          await moveGeneration(tx, batch.id, 'in_progress', { by: actor, changes: { progressDone: 0, progressTotal: 0, lastError: null, signatureKinds, signatureSnapshot } });
          await recordAudit(tx, { action: 'generation.signatures_chosen', subjectType: 'generation', subjectId: batch.id, details: { signatures: signatureKinds } }, actor);
        });
        await queue.send(jobs.generate, { generationId: batch.id }, { singletonKey: `generate:${batch.id}` });
        return { data: { message: request.t('messages:generation_started') } };
      },
    );
  }

  app.get(
    '/generations/:id/signatures',
    {
      config: { access: launch },
      schema: {
        tags,
        summary: 'The official signatures a launch may put on the batch, and its current choice',
        params: z.object({ id: generationId }),
        response: { 200: launchSignaturesResponse },
      },
    },
    async (request) => {
      const batch = await batchFor(db, actorOf(request), request.params.id, generationPolicy.prepareLaunch);
      const available = await db
        .select({ kind: officialSignatures.kind, name: officialSignatures.signerName, title: officialSignatures.signerTitle })
        .from(officialSignatures)
        .orderBy(asc(officialSignatures.kind));
      const chosen = batch.signatureKinds as SignatureKind[] | null;
      return {
        data: {
          available: available.filter((s): s is typeof s & { kind: SignatureKind } => (SIGNATURE_KINDS as readonly string[]).includes(s.kind)),
          chosen,
          locked: chosen !== null && (await hasPrinted(batch.id)),
        },
      };
    },
  );

  const statusOf = async (request: FastifyRequest, id: number) => {
    const batch = await batchFor(db, actorOf(request), id, generationPolicy.view);
    const percent = batch.progressTotal
      ? Math.round((batch.progressDone / batch.progressTotal) * 1000) / 10
      : batch.status === 'ready_for_signature' || batch.status === 'completed'
        ? 100
        : 0;
    return {
      data: {
        id: batch.id,
        status: batch.status as (typeof GENERATION_STATUSES)[number],
        signature_status: batch.signatureStatus as (typeof SIGNATURE_STATUSES)[number],
        progress: { done: batch.progressDone, total: batch.progressTotal, percent },
        last_error: batch.lastError,
      },
    };
  };
  const view = { anyPermission: ['generation.view', 'generation.generate'], section: 'generation' } as const;
  app.get(
    '/generations/status',
    {
      config: { access: view },
      schema: { tags, summary: "A batch's status and progress", querystring: z.object({ generation_id: generationId }), response: { 200: statusResponse } },
    },
    async (request) => statusOf(request, request.query.generation_id),
  );
  app.get(
    '/generations/:id/status',
    { config: { access: view }, schema: { tags, summary: "A batch's status and progress", params: z.object({ id: generationId }), response: { 200: statusResponse } } },
    async (request) => statusOf(request, request.params.id),
  );

  app.post(
    '/generations/:id/apply-signature',
    {
      config: { access: launch },
      schema: {
        tags,
        summary: 'Apply the official signature: publish the generated batch (anchor its root on the chain)',
        params: z.object({ id: generationId }),
        response: { 202: messageResponse },
      },
    },
    async (request, reply) => {
      const { queue, jobs } = requireQueue();
      const actor = actorOf(request);
      const batch = await batchFor(db, actor, request.params.id, generationPolicy.sign);
      if (batch.signatureStatus === 'not_started') await db.transaction((tx) => moveSignature(tx, batch.id, 'in_progress', { by: actor }));
      await queue.send(jobs.anchor, { generationId: batch.id }, { singletonKey: `anchor:${batch.id}` });
      return reply.code(202).send({ data: { message: request.t('messages:signature_started') } });
    },
  );

  app.delete(
    '/generations/:id/cancel',
    {
      config: { access: { anyPermission: ['generation.create', 'generation.generate'], section: 'generation' } },
      schema: {
        tags,
        summary: 'Cancel a batch before its signature starts (what it produced is removed)',
        params: z.object({ id: generationId }),
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const batch = await batchFor(db, actor, request.params.id, generationPolicy.cancel);
      const pdfKeys = await db.transaction(async (tx) => {
        await moveGeneration(tx, batch.id, 'cancelled', { by: actor });
        const produced = await tx.select({ id: diplomas.id, pdfKey: diplomas.pdfKey }).from(diplomas).where(eq(diplomas.generationId, batch.id));
        if (produced.length)
          await tx.delete(diplomas).where(
            inArray(
              diplomas.id,
              produced.map((d) => d.id),
            ),
          );
        await tx.update(generations).set({ merkleRoot: null, progressDone: 0, progressTotal: 0 }).where(eq(generations.id, batch.id));
        return produced.map((d) => d.pdfKey).filter((k): k is string => k !== null);
      });
      for (const key of pdfKeys) await services.storage.delete(key);
      return { data: { message: request.t('messages:generation_cancelled') } };
    },
  );
};
