import type { ImportationStatus } from '@sceau/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { generationItems, generations, importations } from '../../db/schema.ts';
import { defineJob, type JobQueue } from '../../jobs/job-queue.ts';
import { newPhotoKey, originalKeyOf, removeUnusedPhotos } from '../../lib/photo-files.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { loadScopes, NATIONAL, type Scope } from '../../policies/scope.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { moveGeneration } from '../generations/generation-status.ts';
import { findImportedCodes, PHOTO_BOX_MM, PHOTO_LIMITS } from './import-checker.ts';
import { ImportRefused, readListKey, recheckStoredList } from './list-files.ts';
import { preparePhotoFiles } from './photo-reading.ts';

/** Runs of the job before an import that keeps failing is given up (retries of pg-boss, and restarts). */
const MAX_ATTEMPTS = 5;
const INSERT_CHUNK = 1000;
/** Photos prepared and written at the same time by the import job (each may be a sharp decode of up to 10 MB). */
const PHOTOS_AT_ONCE = 8;

/**
 * The durable `import.candidates` job (ADR 0060): an importation's list checked again and its
 * candidates written in one transaction or none, exactly once.
 */
export class ImportJob {
  readonly job;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly log: { warn(obj: unknown, msg?: string): void },
    /** The platform's job queue (none in a tool that only reads). */
    private readonly queue: JobQueue | null,
  ) {
    this.job = defineJob({
      name: 'import.candidates',
      payload: z.object({ importationId: z.number().int().positive() }),
      retryLimit: MAX_ATTEMPTS - 1,
      retryDelaySeconds: 10,
      expireInSeconds: 3600,
      // Two lists at a time per process: one's photo writes wait on the disk while the other's rows are checked.
      concurrency: 2,
      handle: ({ importationId }) => this.runImportation(importationId),
    });
  }

  async queueImportation(importationId: number): Promise<void> {
    // Without a started queue (an API-only test, say) the importation stays queued; resumePending sends it at the next start.
    if (!this.queue?.started) return;
    await this.queue.send(this.job, { importationId }, { singletonKey: `import:${importationId}` });
  }

  /** At start: importations a crash left queued or running are sent again (the handler is idempotent). */
  async resumePending(): Promise<number> {
    const pending = await this.db
      .select({ id: importations.id })
      .from(importations)
      .where(inArray(importations.status, ['queued', 'running']));
    for (const { id } of pending) await this.queueImportation(id);
    return pending.length;
  }

  /**
   * Imports an importation's list: every row checked again, photos normalised and stored, then all
   * candidates written in ONE transaction with the batch's move to pending validation and the
   * importation's completion. A run after completion does nothing; a run that fails deletes the
   * photo files it wrote for candidates it did not record (a crash leaves them to the next run,
   * which overwrites them identically and then records or deletes them), so each candidate is
   * imported once and a failed import leaves no file behind.
   */
  async runImportation(id: number): Promise<void> {
    const [claimed] = await this.db
      .update(importations)
      .set({ status: 'running', attempts: sql`${importations.attempts} + 1`, startedAt: sql`coalesce(${importations.startedAt}, now())`, updatedAt: new Date() })
      .where(and(eq(importations.id, id), inArray(importations.status, ['queued', 'running'])))
      .returning();
    if (!claimed) return;
    if (claimed.attempts > MAX_ATTEMPTS) {
      await this.finish(id, 'failed', 'field.import_failed', {});
      return;
    }
    try {
      await this.importRows(claimed);
    } catch (error) {
      if (error instanceof ImportRefused) {
        await this.finish(id, 'failed', error.key, error.params);
        return;
      }
      if (claimed.attempts >= MAX_ATTEMPTS) {
        this.log.warn({ err: error, importation: id }, 'import given up after repeated failures');
        await this.finish(id, 'failed', 'field.import_failed', {});
        return;
      }
      await this.finish(id, 'queued', 'field.import_retrying', {});
      throw error;
    }
  }

  private async importRows(importation: typeof importations.$inferSelect): Promise<void> {
    const [batch] = await this.db.select().from(generations).where(eq(generations.id, importation.generationId));
    if (!batch) throw new ImportRefused('field.import_batch_status');
    // The scope its author has now: a list checked by someone whose scope was narrowed since is checked again in the new one.
    const scope = importation.createdBy ? ((await loadScopes(this.db, [importation.createdBy])).get(importation.createdBy) ?? NATIONAL) : NATIONAL;
    // The photo files this run wrote, by candidate: removed again unless a row names them.
    const photographed = new Map<string, string>();
    try {
      await this.writeAndRecord(importation, batch, scope, photographed);
    } catch (error) {
      await this.removeUnrecordedPhotos(photographed);
      throw error;
    }
    // The zip's photos are extracted: it is not kept (the list is, as the batch's source), nor is the
    // stored half of its check.
    const [done] = await this.db.select({ status: importations.status }).from(importations).where(eq(importations.id, importation.id));
    if (done?.status === 'completed') {
      // The import stands whatever happens to them; a file left is logged for an operator.
      const extracted = [importation.photosKey, readListKey(importation.fileKey)].filter((k): k is string => k !== null);
      for (const { key, error } of await this.storage.deleteMany(extracted)) this.log.warn({ err: error, key }, 'could not delete the files of a completed import');
    } else {
      // Another run failed it meanwhile: this run's photos are named by no row.
      await this.removeUnrecordedPhotos(photographed);
    }
  }

  /**
   * Deletes the photo files (300 × 400 and original) this run wrote that no candidate's row names:
   * what a run that did not commit wrote. A file a row names (another run of the same importation
   * committed the same photo, under the same content key) is kept. A file that cannot be deleted is
   * logged with its key (warn); the next run of the importation, if any, writes and removes it again.
   */
  private async removeUnrecordedPhotos(written: ReadonlyMap<string, string>): Promise<void> {
    await removeUnusedPhotos(this.db, this.storage, [...written.values()], {
      warn: (obj) => this.log.warn(obj, 'could not delete the photo of an import that did not commit'),
    });
  }

  /** The list checked again, its photos written, then its candidates in one transaction (see runImportation). */
  private async writeAndRecord(
    importation: typeof importations.$inferSelect,
    batch: typeof generations.$inferSelect,
    scope: Scope,
    photographed: Map<string, string>,
  ): Promise<void> {
    const outcome = await recheckStoredList(this.db, this.storage, batch, scope, importation.fileKey, importation.photosKey, async (zip, candidates) => {
      // Photos first, outside the transaction: they are files, written whole under a key of their
      // content (another import of the same candidate at the same time writes its own files).
      // A few at a time, so that the writes' round trips through the file system overlap.
      let lastReport = Date.now();
      for (let start = 0; start < candidates.length; start += PHOTOS_AT_ONCE) {
        await Promise.all(
          candidates.slice(start, start + PHOTOS_AT_ONCE).map(async (candidate) => {
            const entry = candidate.photo ? zip?.files.get(candidate.photo) : undefined;
            if (candidate.photo && !entry) throw new Error(`photo ${candidate.photo} of row ${candidate.row} is not in the zip`);
            if (!entry) return;
            const files = await preparePhotoFiles(await zip!.read(entry), PHOTO_BOX_MM, PHOTO_LIMITS);
            const key = newPhotoKey(batch.id, candidate.candidateCode, files.photo, `importation:${importation.id}`);
            photographed.set(candidate.candidateCode, key);
            if (files.original) await this.storage.put(originalKeyOf(key), files.original);
            await this.storage.put(key, files.photo);
          }),
        );
        if (Date.now() - lastReport > 500) {
          lastReport = Date.now();
          const done = Math.min(candidates.length, start + PHOTOS_AT_ONCE);
          await this.db.update(importations).set({ rowsDone: done, updatedAt: new Date() }).where(eq(importations.id, importation.id));
        }
      }
    });
    // Duplicates are found in the file, against other batches, and against this batch (a second run after a commit).
    if (outcome.problems.length) throw new ImportRefused('field.import_file_has_errors', { count: outcome.problems.length });
    const candidates = outcome.candidates;

    await this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(importations).where(eq(importations.id, importation.id)).for('update');
      if (current?.status !== 'running') return;
      const [locked] = await tx.select().from(generations).where(eq(generations.id, batch.id)).for('update');
      const allowed = importation.kind === 'list' ? ['created'] : ['created', 'pending_validation'];
      if (!locked || !allowed.includes(locked.status)) throw new ImportRefused('field.import_batch_status');
      // One import at a time per session, so two batches cannot take the same candidate.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sceau.import.session'), ${batch.sessionId})`);
      const taken = await findImportedCodes(
        tx,
        batch.sessionId,
        candidates.map((c) => c.candidateCode),
      );
      if (taken.size) throw new ImportRefused('field.import_file_has_errors', { count: taken.size });
      // One statement and one JSON parameter per chunk: the ORM's multi-row insert bound 17
      // parameters per row and cost more CPU than everything else in this transaction.
      for (let i = 0; i < candidates.length; i += INSERT_CHUNK) {
        const rows = candidates.slice(i, i + INSERT_CHUNK).map((c) => ({
          candidate_code: c.candidateCode,
          last_name: c.lastName,
          middle_name: c.middleName,
          first_name: c.firstName,
          birth_date: c.birthDate,
          birth_place: c.birthPlace,
          gender: c.gender,
          option_id: c.optionId,
          institution_id: c.institutionId,
          centre_id: c.centreId,
          percentage_tenths: c.percentageTenths,
          photo_key: c.photo ? (photographed.get(c.candidateCode) ?? null) : null,
          source_row: c.row,
          phone: c.phone,
          email: c.email,
        }));
        await tx.execute(sql`
          insert into ${generationItems} (generation_id, candidate_code, last_name, middle_name, first_name, birth_date, birth_place, gender,
            option_id, institution_id, centre_id, percentage_tenths, photo_key, photo_status, data_status, source_row, phone, email)
          select ${batch.id}, v.candidate_code, v.last_name, v.middle_name, v.first_name, v.birth_date, v.birth_place, v.gender,
            v.option_id, v.institution_id, v.centre_id, v.percentage_tenths, v.photo_key, 'pending', 'pending', v.source_row, v.phone, v.email
          from json_to_recordset(${JSON.stringify(rows)}::json) as v(candidate_code text, last_name text, middle_name text, first_name text,
            birth_date text, birth_place text, gender text, option_id integer, institution_id integer, centre_id integer,
            percentage_tenths integer, photo_key text, source_row integer, phone text, email text)`);
      }
      if (importation.kind === 'list') {
        await moveGeneration(tx, batch.id, 'pending_validation', { actorId: importation.createdBy, changes: { sourcePhotosKey: null }, reason: 'import' });
      }
      await tx
        .update(importations)
        .set({ status: 'completed', rowsTotal: candidates.length, rowsDone: candidates.length, errorKey: null, errorParams: null, finishedAt: new Date(), updatedAt: new Date() })
        .where(eq(importations.id, importation.id));
      await recordAudit(tx, {
        action: 'generation.imported',
        actorId: importation.createdBy,
        subjectType: 'generation',
        subjectId: batch.id,
        details: { importation: importation.id, rows: candidates.length, photos: candidates.filter((c) => c.photo).length },
      });
    });
  }

  private async finish(id: number, status: ImportationStatus, errorKey: string, errorParams: Record<string, unknown>) {
    await this.db
      .update(importations)
      .set({ status, errorKey, errorParams, updatedAt: new Date(), ...(status === 'failed' ? { finishedAt: new Date() } : {}) })
      .where(and(eq(importations.id, id), inArray(importations.status, ['queued', 'running'])));
  }
}
