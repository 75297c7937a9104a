import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DISTRIBUTION_LIMITS, endpoints, isLocale, pathOf, type BroadcastView, type DirectAuthResponse, type Locale } from '@sceau/contracts';
import type { FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { archiveMailings, broadcastDeliveries, broadcasts, diplomas, generationItems, generations, users } from '../../db/schema.ts';
import { defineJob, type JobQueue } from '../../jobs/job-queue.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit, requestOrigin } from '../audit/audit-service.ts';
import { directAuthUrl } from '../accounts/sign-in-links.ts';
import { issueAccessToken } from '../accounts/token-service.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy, isLive, type BatchFacts } from '../../policies/generation-policy.ts';
import { authorize, type Decision } from '../../policies/policy.ts';
import type { Messenger } from '../messaging/messaging-service.ts';
import { archiveFileName, fillBatchArchive, newBatchArchive } from '../generations/batch-archive.ts';
import type { OneTimeLinks } from './one-time-links.ts';

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
type Batch = typeof generations.$inferSelect;

/** Candidates notified between two progress updates of a broadcast. */
const PAGE = 100;
/** Runs of the zip job before a mailing that keeps failing is given up. */
const ARCHIVE_ATTEMPTS = 4;

// A job checks again, for itself, what the request's policy checked: the batch may have been revoked since.
const published = isLive;

/** A batch's name in a message: its title, else its number. */
function batchName(batch: Batch): string {
  return batch.title?.trim() || `#${batch.id}`;
}

/**
 * Distribution of published batches (ADR 0080): the broadcast to candidates (a durable job, each
 * candidate notified once per broadcast), one diploma or the batch's zip by e-mail, and the
 * exchange of one-time sign-in links.
 */
export class DistributionService {
  readonly jobs;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly storage: FileStorage,
    private readonly messenger: Messenger,
    private readonly links: OneTimeLinks,
    private readonly log: Log,
    /** The platform's job queue: broadcasts and zip mailings run on it. */
    private readonly queue: JobQueue | null,
    /** Up to this size a batch's zip is attached; above, a link is sent (lowered by tests). */
    private readonly zipAttachmentMaxBytes: number = DISTRIBUTION_LIMITS.zipAttachmentMaxBytes,
  ) {
    this.jobs = {
      broadcast: defineJob({
        name: 'distribution.broadcast',
        payload: z.object({ broadcastId: z.number().int().positive() }),
        retryLimit: 5,
        retryDelaySeconds: 30,
        expireInSeconds: 3600,
        handle: ({ broadcastId }) => this.runBroadcast(broadcastId),
      }),
      archiveMail: defineJob({
        name: 'distribution.archive_mail',
        payload: z.object({ mailingId: z.number().int().positive() }),
        retryLimit: ARCHIVE_ATTEMPTS - 1,
        retryDelaySeconds: 30,
        expireInSeconds: 3600,
        handle: ({ mailingId }) => this.runArchiveMailing(mailingId),
      }),
    };
  }

  // ------------------------------------------------------------ broadcast

  /**
   * Records a broadcast of a published batch and queues it. Refused while another broadcast of the
   * batch runs; when the queue cannot take it, the broadcast is marked failed and the caller told
   * to try again later.
   */
  async requestBroadcast(actor: Actor, generationId: number): Promise<BroadcastView> {
    await this.batch(actor, generationId, generationPolicy.broadcast, (batch) => (batch.revokedAt ? 'field.broadcast_revoked' : 'field.broadcast_not_published'));
    const total = await this.countRecipients(generationId);
    let broadcast: typeof broadcasts.$inferSelect;
    try {
      broadcast = await this.db.transaction(async (tx) => {
        const [row] = await tx.insert(broadcasts).values({ generationId, locale: actor.locale, total, requestedBy: actor.id }).returning();
        await recordAudit(
          tx,
          { action: 'generation.broadcast_requested', subjectType: 'generation', subjectId: generationId, details: { broadcast: row!.id, candidates: total } },
          actor,
        );
        return row!;
      });
    } catch (error) {
      // broadcasts_active_key: one broadcast at a time per batch.
      if (isUniqueViolation(error)) throw new AppError('conflict', { fields: { generation_id: ['field.broadcast_in_progress'] } });
      throw error;
    }
    try {
      if (!this.queue) throw new Error('the platform has no job queue');
      await this.queue.send(this.jobs.broadcast, { broadcastId: broadcast.id }, { singletonKey: `broadcast:${broadcast.id}` });
    } catch (error) {
      this.log.warn({ err: error, broadcast: broadcast.id }, 'broadcast could not be queued');
      await this.db.update(broadcasts).set({ status: 'failed', finishedAt: new Date() }).where(eq(broadcasts.id, broadcast.id));
      throw new AppError('service_unavailable');
    }
    return presentBroadcast(broadcast);
  }

  /** The batch's latest broadcast (null before the first). */
  async latestBroadcast(actor: Actor, generationId: number): Promise<BroadcastView | null> {
    await this.batch(actor, generationId, generationPolicy.viewBroadcast);
    const [row] = await this.db.select().from(broadcasts).where(eq(broadcasts.generationId, generationId)).orderBy(desc(broadcasts.createdAt), desc(broadcasts.id)).limit(1);
    return row ? presentBroadcast(row) : null;
  }

  /**
   * The job: every candidate holding a diploma that is not revoked, not yet handled by this
   * broadcast, is notified by e-mail and/or SMS (or skipped without a contact). Each candidate's
   * outcome is written in the transaction that sends to them: a retried or concurrent run skips
   * whoever is done, so nobody is notified twice by one broadcast.
   */
  async runBroadcast(broadcastId: number): Promise<void> {
    const [claimed] = await this.db
      .update(broadcasts)
      .set({ status: 'running', startedAt: sql`coalesce(${broadcasts.startedAt}, now())` })
      .where(and(eq(broadcasts.id, broadcastId), inArray(broadcasts.status, ['queued', 'running'])))
      .returning();
    if (!claimed) return;
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, claimed.generationId));
    if (!batch || !published(batch)) {
      await this.finishBroadcast(claimed, 'failed');
      return;
    }
    const locale: Locale = isLocale(claimed.locale) ? claimed.locale : 'fr';
    let after = 0;
    for (;;) {
      const page = await this.db
        .select({ item: generationItems, diplomaId: diplomas.id })
        .from(generationItems)
        .innerJoin(diplomas, eq(diplomas.itemId, generationItems.id))
        .where(
          and(
            eq(generationItems.generationId, batch.id),
            gt(generationItems.id, after),
            isNull(diplomas.revokedAt),
            notExists(
              this.db
                .select({ one: sql`1` })
                .from(broadcastDeliveries)
                .where(and(eq(broadcastDeliveries.broadcastId, broadcastId), eq(broadcastDeliveries.itemId, generationItems.id))),
            ),
          ),
        )
        .orderBy(asc(generationItems.id))
        .limit(PAGE);
      if (page.length === 0) break;
      for (const { item, diplomaId } of page) await this.notifyCandidate(broadcastId, item, diplomaId, locale);
      after = page.at(-1)!.item.id;
      await this.refreshCounts(broadcastId);
    }
    await this.finishBroadcast(claimed, 'completed');
  }

  private async notifyCandidate(broadcastId: number, item: typeof generationItems.$inferSelect, diplomaId: string, locale: Locale): Promise<void> {
    if (!item.email && !item.phone) {
      await this.db.insert(broadcastDeliveries).values({ broadcastId, itemId: item.id, status: 'skipped' }).onConflictDoNothing();
      return;
    }
    await this.db.transaction(async (tx) => {
      // Taken first: another run that got here before holds the row (and its outcome) already.
      const [taken] = await tx
        .insert(broadcastDeliveries)
        .values({ broadcastId, itemId: item.id, status: 'sent' })
        .onConflictDoNothing()
        .returning({ itemId: broadcastDeliveries.itemId });
      if (!taken) return;
      const token = await this.links.create(tx, { purpose: 'direct_auth:candidate', subject: `diploma:${diplomaId}`, minutes: DISTRIBUTION_LIMITS.candidateLinkMinutes });
      const params = {
        name: [item.firstName, item.middleName, item.lastName].filter(Boolean).join(' '),
        code: item.candidateCode,
        verifyUrl: this.verifyUrl(diplomaId),
        directUrl: directAuthUrl(this.config.publicUrl, token),
        minutes: DISTRIBUTION_LIMITS.candidateLinkMinutes,
      };
      const sent = { email: false, sms: false };
      const errors: string[] = [];
      for (const [channel, destination] of [
        ['email', item.email],
        ['sms', item.phone],
      ] as const) {
        if (!destination) continue;
        try {
          await this.messenger.send(destination, 'broadcast_diploma', locale, params);
          sent[channel] = true;
        } catch (error) {
          errors.push(`${channel}: ${(error as Error).message}`.slice(0, 300));
        }
      }
      const ok = sent.email || sent.sms;
      await tx
        .update(broadcastDeliveries)
        .set({ status: ok ? 'sent' : 'failed', emailSent: sent.email, smsSent: sent.sms, error: errors.length ? errors.join('; ') : null })
        .where(and(eq(broadcastDeliveries.broadcastId, broadcastId), eq(broadcastDeliveries.itemId, item.id)));
      if (ok) await tx.update(generationItems).set({ broadcastAt: new Date() }).where(eq(generationItems.id, item.id));
    });
  }

  private async refreshCounts(broadcastId: number) {
    const rows = await this.db
      .select({ status: broadcastDeliveries.status, n: count() })
      .from(broadcastDeliveries)
      .where(eq(broadcastDeliveries.broadcastId, broadcastId))
      .groupBy(broadcastDeliveries.status);
    const n = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    const counts = { sent: n('sent'), skipped: n('skipped'), failed: n('failed') };
    await this.db.update(broadcasts).set(counts).where(eq(broadcasts.id, broadcastId));
    return counts;
  }

  private async finishBroadcast(broadcast: typeof broadcasts.$inferSelect, status: 'completed' | 'failed') {
    const counts = await this.refreshCounts(broadcast.id);
    const total = status === 'completed' ? counts.sent + counts.skipped + counts.failed : broadcast.total;
    await this.db.transaction(async (tx) => {
      const [done] = await tx
        .update(broadcasts)
        .set({ status, total, finishedAt: new Date() })
        .where(and(eq(broadcasts.id, broadcast.id), inArray(broadcasts.status, ['queued', 'running'])))
        .returning({ id: broadcasts.id });
      if (!done) return;
      await recordAudit(tx, {
        action: status === 'completed' ? 'generation.broadcast_completed' : 'generation.broadcast_failed',
        actorId: broadcast.requestedBy,
        subjectType: 'generation',
        subjectId: broadcast.generationId,
        details: { broadcast: broadcast.id, total, ...counts },
      });
    });
  }

  private async countRecipients(generationId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(diplomas)
      .where(and(eq(diplomas.generationId, generationId), isNull(diplomas.revokedAt)));
    return row?.n ?? 0;
  }

  // ------------------------------------------------------------ sharing by e-mail

  /** One signed diploma, attached to an e-mail. */
  async sendDiploma(actor: Actor, itemId: number, email: string): Promise<void> {
    const [row] = await this.db
      .select({
        item: generationItems,
        diploma: { id: diplomas.id, generationId: diplomas.generationId, pdfKey: diplomas.pdfKey, revokedAt: diplomas.revokedAt },
        batch: generations,
      })
      .from(generationItems)
      .innerJoin(generations, eq(generations.id, generationItems.generationId))
      .leftJoin(diplomas, eq(diplomas.itemId, generationItems.id))
      .where(eq(generationItems.id, itemId));
    if (!row) throw new AppError('not_found');
    authorizeNamed(generationPolicy.shareByEmail(actor, row.batch), 'item_id', row.batch.revokedAt ? 'field.share_revoked' : 'field.share_not_published');
    if (!row.diploma?.pdfKey) throw new AppError('not_found');
    if (row.diploma.revokedAt) throw new AppError('conflict', { fields: { item_id: ['field.share_revoked'] } });
    const pdf = await this.storage.get(row.diploma.pdfKey);
    if (!pdf) throw new AppError('not_found');
    const { item, diploma } = row;
    await this.db.transaction(async (tx) => {
      await recordAudit(
        tx,
        { action: 'diploma.sent_by_mail', subjectType: 'diploma', subjectId: diploma.id, generationId: diploma.generationId, details: { item: item.id, email } },
        actor,
      );
      // Inside the transaction: a message that could not be sent leaves no record that it was.
      await this.messenger.send(
        email,
        'diploma_by_mail',
        actor.locale,
        { name: [item.firstName, item.middleName, item.lastName].filter(Boolean).join(' '), code: item.candidateCode, verifyUrl: this.verifyUrl(diploma.id) },
        [{ filename: `diplome-${item.candidateCode}.pdf`, contentType: 'application/pdf', content: pdf }],
      );
    });
  }

  /** Queues the batch's zip for an e-mail (attached when small, else a download link). */
  async requestArchiveMailing(actor: Actor, generationId: number, email: string): Promise<void> {
    await this.batch(actor, generationId, generationPolicy.shareByEmail, (batch) => (batch.revokedAt ? 'field.share_revoked' : 'field.share_not_published'));
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.insert(archiveMailings).values({ generationId, email, locale: actor.locale, requestedBy: actor.id }).returning({ id: archiveMailings.id });
      await recordAudit(tx, { action: 'generation.archive_mail_requested', subjectType: 'generation', subjectId: generationId, details: { mailing: row!.id, email } }, actor);
      return row!.id;
    });
    try {
      if (!this.queue) throw new Error('the platform has no job queue');
      await this.queue.send(this.jobs.archiveMail, { mailingId: id }, { singletonKey: `archive-mail:${id}` });
    } catch (error) {
      this.log.warn({ err: error, mailing: id }, 'zip mailing could not be queued');
      await this.db.update(archiveMailings).set({ status: 'failed' }).where(eq(archiveMailings.id, id));
      throw new AppError('service_unavailable');
    }
  }

  /**
   * The zip job: the batch's zip is streamed to a temporary file (never whole in memory), then
   * attached when it is small enough, else replaced by a link valid a few days. The mailing is
   * marked sent in the transaction that sends it, so a retry after success sends nothing.
   */
  async runArchiveMailing(mailingId: number): Promise<void> {
    const [claimed] = await this.db
      .update(archiveMailings)
      .set({ attempts: sql`${archiveMailings.attempts} + 1` })
      .where(and(eq(archiveMailings.id, mailingId), eq(archiveMailings.status, 'queued')))
      .returning();
    if (!claimed) return;
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, claimed.generationId));
    if (!batch || !published(batch) || claimed.attempts > ARCHIVE_ATTEMPTS) {
      await this.db.update(archiveMailings).set({ status: 'failed' }).where(eq(archiveMailings.id, mailingId));
      return;
    }
    const locale: Locale = isLocale(claimed.locale) ? claimed.locale : 'fr';
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-zip-'));
    try {
      const file = path.join(dir, archiveFileName(batch.id));
      const archive = newBatchArchive();
      const [files] = await Promise.all([fillBatchArchive(this.db, this.storage, batch.id, archive), pipeline(archive, createWriteStream(file))]);
      const { size } = await stat(file);
      const attach = size <= this.zipAttachmentMaxBytes;
      const name = batchName(batch);
      await this.db.transaction(async (tx) => {
        const [current] = await tx.select().from(archiveMailings).where(eq(archiveMailings.id, mailingId)).for('update');
        if (current?.status !== 'queued') return;
        await tx
          .update(archiveMailings)
          .set({ status: 'sent', delivery: attach ? 'attachment' : 'link', bytes: size, sentAt: new Date() })
          .where(eq(archiveMailings.id, mailingId));
        await recordAudit(tx, {
          action: 'generation.archive_mailed',
          actorId: claimed.requestedBy,
          subjectType: 'generation',
          subjectId: batch.id,
          details: { mailing: mailingId, email: claimed.email, files, bytes: size, delivery: attach ? 'attachment' : 'link' },
        });
        if (attach) {
          await this.messenger.send(claimed.email, 'archive_by_mail', locale, { name, count: files }, [
            { filename: archiveFileName(batch.id), contentType: 'application/zip', path: file },
          ]);
        } else {
          const days = DISTRIBUTION_LIMITS.zipLinkDays;
          const token = await this.links.create(tx, { purpose: 'archive_download', subject: `generation:${batch.id}`, minutes: days * 24 * 60 });
          await this.messenger.send(claimed.email, 'archive_by_mail_link', locale, {
            name,
            count: files,
            url: this.archiveUrl(token),
            days,
            size: Math.ceil(size / (1024 * 1024)),
          });
        }
      });
    } catch (error) {
      if (claimed.attempts >= ARCHIVE_ATTEMPTS) {
        this.log.warn({ err: error, mailing: mailingId }, 'zip mailing given up after repeated failures');
        await this.db.update(archiveMailings).set({ status: 'failed' }).where(eq(archiveMailings.id, mailingId));
        return;
      }
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The batch a zip download link opens (null when the link is unknown, expired, or its batch no longer published). */
  async archiveOfLink(token: string): Promise<number | null> {
    const subject = await this.links.peek(token, 'archive_download');
    const id = subject?.startsWith('generation:') ? Number(subject.slice('generation:'.length)) : NaN;
    if (!Number.isInteger(id)) return null;
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, id));
    return batch && published(batch) ? batch.id : null;
  }

  /** Streams a batch's zip into `archive` for a download link, counting the downloads once every file is in. */
  async fillLinkedArchive(generationId: number, archive: ReturnType<typeof newBatchArchive>, request: FastifyRequest): Promise<void> {
    await fillBatchArchive(this.db, this.storage, generationId, archive, (files) =>
      this.db.transaction(async (tx) => {
        await tx
          .update(diplomas)
          .set({ downloads: sql`${diplomas.downloads} + 1` })
          .where(and(eq(diplomas.generationId, generationId), sql`${diplomas.pdfKey} is not null`));
        await recordAudit(tx, { action: 'generation.exported', subjectType: 'generation', subjectId: generationId, details: { files, via: 'link' } }, request);
      }),
    );
  }

  // ------------------------------------------------------------ direct sign-in links

  /**
   * Spends a one-time link: a candidate's opens their diploma, a staff member's signs them in
   * (a bearer token like the password grant's). Unknown, used and expired links are told apart.
   */
  async exchangeDirectLink(token: string, request: FastifyRequest): Promise<DirectAuthResponse> {
    const outcome = await this.db.transaction(async (tx) => {
      const link = await this.links.consume(tx, token, ['direct_auth:candidate', 'direct_auth:staff']);
      if ('failure' in link) return link;
      if (link.purpose === 'direct_auth:candidate') {
        const diplomaId = link.subject.slice('diploma:'.length);
        const [diploma] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, diplomaId));
        if (!diploma) return { failure: 'unknown' as const };
        await recordAudit(tx, { action: 'diploma.direct_link_used', actorLabel: 'candidate', subjectType: 'diploma', subjectId: diploma.id }, request);
        return { answer: { kind: 'candidate' as const, diploma_id: diploma.id } };
      }
      const [user] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, link.userId ?? -1), isNull(users.archivedAt)));
      if (!user) return { failure: 'unknown' as const };
      const issued = await issueAccessToken(tx, {
        userId: user.id,
        clientId: this.config.oauth.clientId,
        scope: '',
        ttlMinutes: this.config.tokenTtlMinutes,
        ...requestOrigin(request),
      });
      await recordAudit(tx, { action: 'auth.signed_in', actorId: user.id, subjectType: 'user', subjectId: user.id, details: { via: 'direct_link' } }, request);
      return { answer: { kind: 'staff' as const, token_type: 'Bearer' as const, access_token: issued.token, expires_in: issued.expiresIn } };
    });
    if ('failure' in outcome) {
      if (outcome.failure !== 'unknown') await recordAudit(this.db, { action: 'auth.direct_link_refused', actorLabel: outcome.failure }, request);
      throw fieldError('token', `field.direct_auth_${outcome.failure}`);
    }
    return outcome.answer;
  }

  // ------------------------------------------------------------ helpers

  /** At start: broadcasts and zip mailings a crash left behind are queued again (their handlers are idempotent). */
  async resumePending(): Promise<number> {
    const queue = this.queue;
    if (!queue) throw new Error('the platform has no job queue');
    const pendingBroadcasts = await this.db
      .select({ id: broadcasts.id })
      .from(broadcasts)
      .where(inArray(broadcasts.status, ['queued', 'running']));
    for (const { id } of pendingBroadcasts) await queue.send(this.jobs.broadcast, { broadcastId: id }, { singletonKey: `broadcast:${id}` });
    const pendingMailings = await this.db.select({ id: archiveMailings.id }).from(archiveMailings).where(eq(archiveMailings.status, 'queued'));
    for (const { id } of pendingMailings) await queue.send(this.jobs.archiveMail, { mailingId: id }, { singletonKey: `archive-mail:${id}` });
    return pendingBroadcasts.length + pendingMailings.length;
  }

  verifyUrl(diplomaId: string): string {
    return `${this.config.publicUrl}/verify/${encodeURIComponent(diplomaId)}`;
  }

  archiveUrl(token: string): string {
    return `${this.config.publicUrl}/api${pathOf(endpoints.distribution.archiveDownload, { token })}`;
  }

  /** The batch held to a rule of its policy; a refusal for its state names why on `generation_id`. */
  private async batch(actor: Actor, id: number, rule: (actor: Actor, batch: BatchFacts) => Decision, stateMessage?: (batch: Batch) => string): Promise<Batch> {
    const [row] = await this.db.select().from(generations).where(eq(generations.id, id));
    if (!row) throw new AppError('not_found');
    authorizeNamed(rule(actor, row), 'generation_id', stateMessage?.(row));
    return row;
  }
}

function presentBroadcast(row: typeof broadcasts.$inferSelect): BroadcastView {
  return {
    id: row.id,
    generation_id: row.generationId,
    status: row.status,
    total: row.total,
    sent: row.sent,
    skipped: row.skipped,
    failed: row.failed,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
}

/** A policy's answer, with a refusal for the object's state named on a field (the web shows it there). */
function authorizeNamed(decision: Decision, field: string, stateMessage: string | undefined): void {
  if (decision === 'state' && stateMessage) throw new AppError('conflict', { fields: { [field]: [stateMessage] } });
  authorize(decision);
}
