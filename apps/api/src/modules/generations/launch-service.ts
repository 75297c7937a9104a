import { isPublished, maskContact, type GenerationProgress, type LaunchSignatures, type SignatureKind } from '@sceau/contracts';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generationItems, generations, officialSignatures, users } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { Services } from '../../services.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { originalPhotoKey, photoKey as importedPhotoKey, removeUnusedPhotos } from '../../lib/photo-files.ts';
import { authorize } from '../../policies/policy.ts';
import { batchFor, batchSigningKeys, type BatchRow } from './batch-access.ts';
import { moveGeneration, moveSignature } from './generation-status.ts';

/** How long a verified launch code allows the launch. */
const LAUNCH_GRANT_MINUTES = 10;

type LaunchServices = Pick<Services, 'otp' | 'queue' | 'jobs' | 'storage' | 'identity'>;

/**
 * Launching, following and publishing a batch (spec: /otp-generation, /generating-op): a one-time
 * code sent to the signed-in user and verified for this batch, then the generation job, its
 * progress, the official signature (anchoring job), and cancellation before the signature starts.
 */
export class LaunchService {
  constructor(
    private readonly db: Db,
    private readonly services: LaunchServices,
  ) {}

  private requireQueue() {
    if (!this.services.queue || !this.services.jobs) throw new AppError('internal_error');
    return { queue: this.services.queue, jobs: this.services.jobs };
  }

  private async contactOf(actor: Actor) {
    const [me] = await this.db.select().from(users).where(eq(users.id, actor.id));
    return { me: me!, destination: me!.email ?? me!.phone };
  }

  /** Whether some of the batch's diplomas are printed already (a relaunch after a failure): their signatures are fixed. */
  private async hasPrinted(id: number): Promise<boolean> {
    const [printed] = await this.db
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
  private async chooseSignatures(batch: BatchRow, asked: SignatureKind[] | undefined): Promise<SignatureKind[]> {
    const active = (await this.db.select({ kind: officialSignatures.kind }).from(officialSignatures)).map((s) => s.kind);
    const earlier = batch.signatureKinds;
    if (!asked) return earlier ?? active;
    const inactive = asked.filter((kind) => !active.includes(kind));
    if (inactive.length) throw fieldError('signatures', 'field.launch_signature_inactive');
    const same = earlier !== null && earlier.length === asked.length && asked.every((kind) => earlier.includes(kind));
    if (earlier !== null && !same && (await this.hasPrinted(batch.id))) throw fieldError('signatures', 'field.launch_signatures_locked');
    return asked;
  }

  /** Sends the signed-in user a launch code for the batch; answers where it went (masked) and its timings. */
  async sendCode(actor: Actor, generationId: number) {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.launch);
    const { me, destination } = await this.contactOf(actor);
    if (!destination) throw new AppError('conflict');
    const sent = await this.services.otp.send({ destination, purpose: `generation_launch:${batch.id}`, userId: me.id, locale: me.locale, template: 'otp_generation' });
    return { channel: sent.channel, destination: maskContact(destination), resendIn: sent.resendIn, expiresIn: sent.expiresIn };
  }

  /** Checks a launch code; a right one allows this user to launch this batch for a few minutes. */
  async verifyCode(actor: Actor, generationId: number, code: string): Promise<void> {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.launch);
    const { me, destination } = await this.contactOf(actor);
    try {
      await this.services.otp.verify({ destination: destination ?? '', purpose: `generation_launch:${batch.id}`, code });
    } catch (error) {
      // The launch page sends `code`: name the field it knows.
      if (error instanceof AppError && error.options.fields?.otp) throw new AppError('validation_failed', { fields: { code: error.options.fields.otp } });
      throw error;
    }
    await this.services.otp.grant(me.id, `generation_launch_ok:${batch.id}`, LAUNCH_GRANT_MINUTES);
    await recordAudit(this.db, { action: 'generation.launch_code_verified', subjectType: 'generation', subjectId: batch.id }, actor);
  }

  /** Launches the generation (after the code), with the official signatures its diplomas carry. */
  async start(actor: Actor, generationId: number, signatures: SignatureKind[] | undefined): Promise<void> {
    const { queue, jobs } = this.requireQueue();
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.launch);
    // Checked before the code is spent: a wrong choice does not cost a new code.
    const signatureKinds = await this.chooseSignatures(batch, signatures);
    if (!(await this.services.otp.consumeGrant(actor.id, `generation_launch_ok:${batch.id}`))) throw fieldError('code', 'field.launch_code_required');
    // What /settings holds now is what this batch prints, even if a signature is replaced later;
    // a relaunch of a batch with printed diplomas keeps the snapshot those were printed with.
    const signatureSnapshot =
      batch.signatureSnapshot && (await this.hasPrinted(batch.id))
        ? batch.signatureSnapshot
        : (await this.db.select().from(officialSignatures).where(inArray(officialSignatures.kind, signatureKinds))).map((s) => ({
            kind: s.kind,
            signerName: s.signerName,
            signerTitle: s.signerTitle,
            imageKey: s.imageKey,
            imageSha256: s.imageSha256,
          }));
    await this.db.transaction(async (tx) => {
      await moveGeneration(tx, batch.id, 'in_progress', { by: actor, changes: { progressDone: 0, progressTotal: 0, lastError: null, signatureKinds, signatureSnapshot } });
      await recordAudit(tx, { action: 'generation.signatures_chosen', subjectType: 'generation', subjectId: batch.id, details: { signatures: signatureKinds } }, actor);
    });
    await queue.send(jobs.generate, { generationId: batch.id }, { singletonKey: `generate:${batch.id}` });
  }

  /** The official signatures a launch may put on the batch, and its current choice. */
  async signatures(actor: Actor, generationId: number): Promise<LaunchSignatures> {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.prepareLaunch);
    const available = await this.db
      .select({ kind: officialSignatures.kind, name: officialSignatures.signerName, title: officialSignatures.signerTitle })
      .from(officialSignatures)
      .orderBy(asc(officialSignatures.kind));
    const chosen = batch.signatureKinds;
    return {
      available,
      chosen,
      locked: chosen !== null && (await this.hasPrinted(batch.id)),
      launch_code: await this.launchCode(actor, batch.id),
    };
  }

  /** Where the user's launch step stands (LaunchSignatures.launch_code): the page reads it again after a reload. */
  private async launchCode(actor: Actor, batchId: number): Promise<LaunchSignatures['launch_code']> {
    const { destination } = await this.contactOf(actor);
    if (!destination) return null;
    const now = Date.now();
    const seconds = (at: Date) => Math.max(0, Math.ceil((at.getTime() - now) / 1000));
    const channel = destination.includes('@') ? ('email' as const) : ('sms' as const);
    const pending = await this.services.otp.pending(destination, `generation_launch:${batchId}`);
    const granted = await this.services.otp.grantExpiry(actor.id, `generation_launch_ok:${batchId}`);
    if (granted) return { state: 'verified', channel, destination: maskContact(destination), expires_in: seconds(granted), resend_in: pending ? seconds(pending.resendAt) : 0 };
    if (pending) return { state: 'sent', channel, destination: maskContact(destination), expires_in: seconds(pending.expiresAt), resend_in: seconds(pending.resendAt) };
    return null;
  }

  /** A batch's status and progress. */
  async status(actor: Actor, generationId: number): Promise<GenerationProgress> {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.view);
    const percent = batch.progressTotal
      ? Math.round((batch.progressDone / batch.progressTotal) * 1000) / 10
      : batch.status === 'ready_for_signature' || isPublished(batch.status)
        ? 100
        : 0;
    return {
      id: batch.id,
      status: batch.status,
      signature_status: batch.signatureStatus,
      progress: { done: batch.progressDone, total: batch.progressTotal, percent },
      last_error: batch.lastError,
    };
  }

  /** Starts the official signature: the anchoring job publishes the batch. */
  async applySignature(actor: Actor, generationId: number): Promise<void> {
    const { queue, jobs } = this.requireQueue();
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.sign);
    // Made with a key since retired: its root anchored now would be refused by every verifier (ADR 0148).
    authorize(generationPolicy.sign(actor, batch, await batchSigningKeys(this.db, batch.id, this.services.identity?.keys ?? null)));
    if (batch.signatureStatus === 'not_started') await this.db.transaction((tx) => moveSignature(tx, batch.id, 'in_progress', { by: actor }));
    await queue.send(jobs.anchor, { generationId: batch.id }, { singletonKey: `anchor:${batch.id}` });
  }

  /**
   * Cancels a batch before its signature starts; what it produced is removed, and so are its
   * candidates' photos and the originals kept for the editor (a cancelled batch is never taken up
   * again, and none of its diplomas was published): its candidates keep their data, without a photo.
   */
  async cancel(actor: Actor, generationId: number): Promise<void> {
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.cancel);
    let photos: { photoKey: string | null; candidateCode: string }[] = [];
    const pdfKeys = await this.db.transaction(async (tx) => {
      await moveGeneration(tx, batch.id, 'cancelled', { by: actor });
      // Read before the update: RETURNING would give the new (null) keys.
      photos = await tx
        .select({ photoKey: generationItems.photoKey, candidateCode: generationItems.candidateCode })
        .from(generationItems)
        .where(eq(generationItems.generationId, batch.id));
      await tx.update(generationItems).set({ photoKey: null, updatedAt: new Date() }).where(eq(generationItems.generationId, batch.id));
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
    // The PDFs in one deleteMany (with S3, a request per 1,000); one that stays is an error, once the photos are handled.
    const failed = await this.services.storage.deleteMany(pdfKeys);
    // Each candidate's photo, its original, and the import's own file an upload may have left.
    const keys = photos.flatMap((p) => [p.photoKey, originalPhotoKey(batch.id, p.candidateCode), importedPhotoKey(batch.id, p.candidateCode)]);
    await removeUnusedPhotos(this.db, this.services.storage, keys);
    if (failed.length) throw new Error(`${failed.length} PDF file(s) of cancelled batch ${batch.id} could not be deleted`, { cause: failed[0]!.error });
  }
}
