import { createHash, randomUUID } from 'node:crypto';
import { IMPORTATIONS_LISTED, IMPORTATIONS_RECENT_DAYS, type GenerationType, type ImportationStatus } from '@sceau/contracts';
import { preparePhoto } from '@sceau/pdf';
import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { educProvinces, examSessions, generationItems, generations, importations, institutions, templates } from '../../db/schema.ts';
import { defineJob, type JobQueue } from '../../jobs/job-queue.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { moveGeneration } from '../generations/generation-status.ts';
import { batchFor } from '../generations/batch-access.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { importationPolicy } from '../../policies/importation-policy.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import { loadScopes, NATIONAL, type Scope } from '../../policies/scope.ts';
import { templatePolicy } from '../../policies/template-policy.ts';
import { checkRows, findImportedCodes, HEADER_HINTS, PHOTO_BOX_MM, PHOTO_LIMITS, readRows, type CheckedCandidate, type CheckOutcome, type ReadList } from './import-checker.ts';
import { readTable, UnreadableTable, type Table } from './table-reader.ts';
import { openZip, type ZipArchive } from './zip-archive.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface UploadedFiles {
  list: Buffer | null;
  photos: Buffer | null;
}

export interface CheckResult extends CheckOutcome {
  generationId: number;
  format: Table['format'];
}

/** Runs of the job before an import that keeps failing is given up (retries of pg-boss, and restarts). */
const MAX_ATTEMPTS = 5;
const INSERT_CHUNK = 1000;
/** Photos prepared and written at the same time by the import job (each may be a sharp decode of up to 10 MB). */
const PHOTOS_AT_ONCE = 8;

/** A failure that another attempt would not cure: the importation is marked failed, not retried. */
class ImportRefused extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

/**
 * Student lists (ADR 0060): a list is checked whole and stored with a draft batch; its import is a
 * durable job that writes every candidate in one transaction or none, exactly once.
 */
export class ImportsService {
  readonly job;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
    /** The platform's job queue (none in a tool that only reads). */
    private readonly queue: JobQueue | null = null,
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

  // ------------------------------------------------------------ checks and drafts

  /**
   * Checks a list and stores it with a draft batch (status created), errors or not, so the user can
   * fix it and upload it again. With `generationId`, the file replaces that draft's list (and its
   * photos zip when one is sent; the earlier zip is kept otherwise).
   */
  async checkFile(
    actor: Actor,
    input: { template_id: number; generation_type?: string; session_id: number; province_id: number; generation_id?: number },
    files: UploadedFiles,
  ): Promise<CheckResult> {
    const scope = actor.scope;
    const template = await this.usableTemplate(actor, input.template_id);
    if (input.generation_type && input.generation_type !== template.generationType) throw fieldError('generation_type', 'field.template_type_mismatch');
    const session = await this.session(input.session_id);
    await this.checkProvince(actor, input.province_id);
    const draft = input.generation_id ? await this.draft(actor, input.generation_id) : null;
    if (!files.list) throw fieldError('file', 'field.file_required');

    const table = await readList(files.list);
    const zipBytes = files.photos ?? (draft?.sourcePhotosKey ? await this.storage.get(draft.sourcePhotosKey) : null);
    const zip = zipBytes ? await readZip(zipBytes) : null;
    let read: ReadList;
    try {
      read = await readRows(table, { sessionYear: session.year, zip });
    } finally {
      zip?.close();
    }
    const outcome = await checkRows(this.db, read, { sessionId: session.id, provinceId: input.province_id, scope });

    const folder = `imports/${randomUUID()}`;
    const listKey = `${folder}/list.${table.format}`;
    await this.storage.put(listKey, files.list);
    const photosKey = files.photos ? `${folder}/photos.zip` : (draft?.sourcePhotosKey ?? null);
    if (files.photos) await this.storage.put(photosKey!, files.photos);
    await this.storeReadList(listKey, files.list, zipBytes, session.year, read);

    const placement = this.placement(scope, outcome.candidates);
    const values = {
      type: template.generationType,
      templateId: template.id,
      sessionId: session.id,
      educProvinceId: input.province_id,
      ...placement,
      sourceFileKey: listKey,
      sourcePhotosKey: photosKey,
    };
    const { id, replaced } = await this.db.transaction(async (tx) => {
      if (draft) {
        const [row] = await tx.select().from(generations).where(eq(generations.id, draft.id)).for('update');
        if (row?.status !== 'created' || (await this.hasListImportation(tx, draft.id))) throw new AppError('conflict');
        await tx
          .update(generations)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(generations.id, draft.id));
        await recordAudit(
          tx,
          { action: 'generation.list_replaced', subjectType: 'generation', subjectId: draft.id, details: { rows: outcome.rows, errors: outcome.problems.length } },
          actor,
        );
        const old = [row.sourceFileKey, row.sourceFileKey && readListKey(row.sourceFileKey), files.photos ? row.sourcePhotosKey : null].filter((k): k is string => !!k);
        return { id: draft.id, replaced: old };
      }
      const [created] = await tx
        .insert(generations)
        .values({ ...values, title: null, createdBy: actor.id })
        .returning({ id: generations.id });
      await recordAudit(
        tx,
        { action: 'generation.draft_created', subjectType: 'generation', subjectId: created!.id, details: { rows: outcome.rows, errors: outcome.problems.length } },
        actor,
      );
      return { id: created!.id, replaced: [] as string[] };
    });
    for (const key of replaced) await this.storage.delete(key).catch(() => {});
    return { ...outcome, generationId: id, format: table.format };
  }

  /** `start-import-process`: the stored list is checked again, then its import queued. */
  async startImport(actor: Actor, generationId: number, title: string): Promise<number> {
    const scope = actor.scope;
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.importList);
    if (batch.status !== 'created' || !batch.sourceFileKey) throw new AppError('conflict');
    const outcome = await this.recheck(batch, scope, batch.sourceFileKey, batch.sourcePhotosKey);
    if (outcome.problems.length) throw fileHasErrors(outcome.problems.length);
    if (!outcome.candidates.length) throw fieldError('file', 'field.import_empty_file');
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (row?.status !== 'created' || (await this.hasListImportation(tx, generationId))) throw new AppError('conflict');
      await tx.update(generations).set({ title, updatedAt: new Date() }).where(eq(generations.id, generationId));
      const importationId = await insertImportation(tx, {
        generationId,
        kind: 'list',
        fileKey: row.sourceFileKey!,
        photosKey: row.sourcePhotosKey,
        rowsTotal: outcome.candidates.length,
        createdBy: actor.id,
      });
      await recordAudit(
        tx,
        {
          action: 'generation.import_started',
          subjectType: 'generation',
          subjectId: generationId,
          details: { importation: importationId, rows: outcome.candidates.length, title },
        },
        actor,
      );
      return importationId;
    });
    await this.queueImportation(id);
    return id;
  }

  /** `POST import/candidates`: more candidates for a batch still being prepared (created or pending validation). */
  async importCandidates(actor: Actor, generationId: number, files: UploadedFiles): Promise<CheckResult & { importationId: number | null }> {
    const scope = actor.scope;
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.importList);
    if (!files.list) throw fieldError('file', 'field.file_required');
    const table = await readList(files.list);
    const zip = files.photos ? await readZip(files.photos) : null;
    const [session] = await this.db.select().from(examSessions).where(eq(examSessions.id, batch.sessionId));
    let read: ReadList;
    try {
      read = await readRows(table, { sessionYear: session!.year, zip });
    } finally {
      zip?.close();
    }
    const outcome = await checkRows(this.db, read, { sessionId: batch.sessionId, provinceId: batch.educProvinceId, scope });
    const result = { ...outcome, generationId, format: table.format };
    if (outcome.problems.length || !outcome.candidates.length) return { ...result, importationId: null };

    const folder = `imports/${randomUUID()}`;
    const fileKey = `${folder}/list.${table.format}`;
    await this.storage.put(fileKey, files.list);
    const photosKey = files.photos ? `${folder}/photos.zip` : null;
    if (files.photos) await this.storage.put(photosKey!, files.photos);
    await this.storeReadList(fileKey, files.list, files.photos, session!.year, read);
    const importationId = await this.db.transaction(async (tx) => {
      const id = await insertImportation(tx, { generationId, kind: 'append', fileKey, photosKey, rowsTotal: outcome.candidates.length, createdBy: actor.id });
      await recordAudit(
        tx,
        { action: 'generation.import_started', subjectType: 'generation', subjectId: generationId, details: { importation: id, rows: outcome.candidates.length, append: true } },
        actor,
      );
      return id;
    });
    await this.queueImportation(importationId);
    return { ...result, importationId };
  }

  async tracking(actor: Actor, id: number) {
    const [row] = await this.db
      .select({ importation: importations, batch: generations })
      .from(importations)
      .innerJoin(generations, eq(generations.id, importations.generationId))
      .where(eq(importations.id, id));
    if (!row) throw new AppError('not_found');
    authorize(importationPolicy.follow(actor, { batch: row.batch }));
    const i = row.importation;
    const status = i.status;
    const percent = status === 'completed' ? 100 : i.rowsTotal ? Math.min(99, Math.floor((i.rowsDone * 100) / i.rowsTotal)) : 0;
    return { importation: i, status, percent };
  }

  /**
   * The actor's own imports within their scope, newest first (at most IMPORTATIONS_LISTED): those
   * queued or running, and unless `activeOnly` those finished in the last IMPORTATIONS_RECENT_DAYS days.
   */
  async mine(actor: Actor, activeOnly: boolean) {
    const active = inArray(importations.status, ['queued', 'running']);
    const recent = gt(importations.updatedAt, sql`now() - make_interval(days => ${IMPORTATIONS_RECENT_DAYS})`);
    return this.db
      .select({ id: importations.id, generation: { id: generations.id, title: generations.title, template_id: generations.templateId, status: generations.status } })
      .from(importations)
      .innerJoin(generations, eq(generations.id, importations.generationId))
      .where(and(eq(importations.createdBy, actor.id), generationPolicy.visibleCondition(actor), activeOnly ? active : or(active, recent)))
      .orderBy(desc(importations.id))
      .limit(IMPORTATIONS_LISTED);
  }

  /**
   * A batch created from rows someone else already checked (the national results registry): the
   * list is stored and imported by the same job as an uploaded one.
   */
  async createBatchFromList(
    tx: Tx,
    input: {
      userId: number;
      scope: Scope;
      templateId: number;
      type: GenerationType;
      sessionId: number;
      provinceId: number;
      title: string | null;
      listKey: string;
      candidates: Pick<CheckedCandidate, 'institutionId' | 'centreId' | 'optionId'>[];
    },
  ): Promise<{ generationId: number; importationId: number }> {
    const placement = this.placement(input.scope, input.candidates);
    const [created] = await tx
      .insert(generations)
      .values({
        type: input.type,
        templateId: input.templateId,
        title: input.title,
        sessionId: input.sessionId,
        educProvinceId: input.provinceId,
        ...placement,
        sourceFileKey: input.listKey,
        createdBy: input.userId,
      })
      .returning({ id: generations.id });
    const importationId = await insertImportation(tx, {
      generationId: created!.id,
      kind: 'list',
      fileKey: input.listKey,
      photosKey: null,
      rowsTotal: input.candidates.length,
      createdBy: input.userId,
    });
    return { generationId: created!.id, importationId };
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

  // ------------------------------------------------------------ the job

  /**
   * Imports an importation's list: every row checked again, photos normalised and stored, then all
   * candidates written in ONE transaction with the batch's move to pending validation and the
   * importation's completion. A run after completion does nothing; a run cut short left nothing
   * (photos written before are overwritten identically), so each candidate is imported once.
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
    const outcome = await this.recheck(batch, scope, importation.fileKey, importation.photosKey, async (zip, candidates) => {
      // Photos first, outside the transaction: they are files, written whole under a fixed name.
      // A few at a time, so that the writes' round trips through the file system overlap.
      let lastReport = Date.now();
      for (let start = 0; start < candidates.length; start += PHOTOS_AT_ONCE) {
        await Promise.all(
          candidates.slice(start, start + PHOTOS_AT_ONCE).map(async (candidate) => {
            const entry = candidate.photo ? zip?.files.get(candidate.photo) : undefined;
            if (candidate.photo && !entry) throw new Error(`photo ${candidate.photo} of row ${candidate.row} is not in the zip`);
            if (!entry) return;
            const jpeg = await preparePhoto(await zip!.read(entry), PHOTO_BOX_MM, PHOTO_LIMITS);
            await this.storage.put(photoKey(batch.id, candidate.candidateCode), Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength));
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
          photo_key: c.photo ? photoKey(batch.id, c.candidateCode) : null,
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
    // The zip's photos are extracted: it is not kept (the list is, as the batch's source), nor is the
    // stored half of its check.
    const [done] = await this.db.select({ status: importations.status }).from(importations).where(eq(importations.id, importation.id));
    if (done?.status === 'completed') {
      if (importation.photosKey) await this.storage.delete(importation.photosKey).catch(() => {});
      await this.storage.delete(readListKey(importation.fileKey)).catch(() => {});
    }
  }

  private async finish(id: number, status: ImportationStatus, errorKey: string, errorParams: Record<string, unknown>) {
    await this.db
      .update(importations)
      .set({ status, errorKey, errorParams, updatedAt: new Date(), ...(status === 'failed' ? { finishedAt: new Date() } : {}) })
      .where(and(eq(importations.id, id), inArray(importations.status, ['queued', 'running'])));
  }

  // ------------------------------------------------------------ helpers

  /**
   * Checks the stored list (and zip) again as it stands now; `withZip` runs while the zip is open.
   * The half of the check that depends on the files alone (values, photos: `readRows`) is read back
   * from what the upload's check stored beside the list, when the list's and the zip's SHA-256 and
   * the session's year are those it was made from (ADR 0111); the half that depends on the database
   * (reference data, scope, duplicates: `checkRows`) always runs again.
   */
  private async recheck(
    batch: typeof generations.$inferSelect,
    scope: Scope,
    fileKey: string,
    photosKey: string | null,
    withZip?: (zip: ZipArchive | null, candidates: CheckedCandidate[]) => Promise<void>,
  ): Promise<CheckOutcome> {
    const list = await this.storage.get(fileKey);
    if (!list) throw new ImportRefused('field.import_file_missing');
    const zipBytes = photosKey ? await this.storage.get(photosKey) : null;
    if (photosKey && !zipBytes) throw new ImportRefused('field.import_file_missing');
    const [session] = await this.db.select().from(examSessions).where(eq(examSessions.id, batch.sessionId));
    let zip: ZipArchive | null = null;
    try {
      let read = await this.storedReadList(fileKey, list, zipBytes, session!.year);
      if (!read) {
        let table: Table;
        try {
          table = await readTable(list, HEADER_HINTS);
        } catch (error) {
          if (error instanceof UnreadableTable) throw new ImportRefused(`field.import_${error.reason}`);
          throw error;
        }
        zip = zipBytes ? await openZip(zipBytes) : null;
        read = await readRows(table, { sessionYear: session!.year, zip });
      }
      const outcome = await checkRows(this.db, read, { sessionId: batch.sessionId, provinceId: batch.educProvinceId, scope });
      if (withZip && !outcome.problems.length) {
        zip ??= zipBytes ? await openZip(zipBytes) : null;
        await withZip(zip, outcome.candidates);
      }
      return outcome;
    } finally {
      zip?.close();
    }
  }

  /** Beside the stored list: the file-only half of its check, with what it was made from. */
  private async storeReadList(listKey: string, list: Buffer, zip: Buffer | null, sessionYear: number, read: ReadList): Promise<void> {
    const stored: StoredReadList = { version: READ_LIST_VERSION, list: sha256(list), photos: zip ? sha256(zip) : null, sessionYear, read };
    await this.storage.put(readListKey(listKey), Buffer.from(JSON.stringify(stored)));
  }

  /** The stored file-only half of a list's check, if it was made from exactly these files (else null: checked again). */
  private async storedReadList(listKey: string, list: Buffer, zip: Buffer | null, sessionYear: number): Promise<ReadList | null> {
    const bytes = await this.storage.get(readListKey(listKey));
    if (!bytes) return null;
    try {
      const stored = JSON.parse(bytes.toString('utf8')) as StoredReadList;
      const same = stored.version === READ_LIST_VERSION && stored.sessionYear === sessionYear && stored.list === sha256(list) && stored.photos === (zip ? sha256(zip) : null);
      return same ? stored.read : null;
    } catch {
      return null;
    }
  }

  /** The batch if the user's scope holds it (else 404: its existence is not disclosed). */
  private async draft(actor: Actor, id: number) {
    const batch = await batchFor(this.db, actor, id, generationPolicy.importList);
    if (batch.status !== 'created' || (await this.hasListImportation(this.db, id))) throw new AppError('conflict');
    return batch;
  }

  private async hasListImportation(db: Pick<Db, 'select'>, generationId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: importations.id })
      .from(importations)
      .where(and(eq(importations.generationId, generationId), eq(importations.kind, 'list'), inArray(importations.status, ['queued', 'running', 'completed'])));
    return !!row;
  }

  /** A template the user may use: the country's, or their own school's (a school-bound user cannot use another school's). */
  async usableTemplate(actor: Actor, id: number) {
    const [template] = await this.db.select().from(templates).where(eq(templates.id, id));
    const [school] =
      template?.ownerType === 'institution'
        ? await this.db
            .select({ institutionId: institutions.id, centreId: institutions.centreId, educProvinceId: institutions.educProvinceId })
            .from(institutions)
            .where(eq(institutions.id, template.ownerId))
        : [];
    if (!template || !allowed(templatePolicy.use(actor, { ownerType: template.ownerType, school: school ?? null }))) throw fieldError('template', 'field.template_unknown');
    return template;
  }

  async session(id: number) {
    const [session] = await this.db.select().from(examSessions).where(eq(examSessions.id, id));
    if (!session) throw fieldError('session_id', 'field.invalid_option');
    return session;
  }

  /** The province must exist and hold the user's scope (a school-bound user works in their school's province). */
  /** A new batch goes to a province of the actor's scope (the batch policy's `create`). */
  async checkProvince(actor: Actor, provinceId: number): Promise<void> {
    const [province] = await this.db.select().from(educProvinces).where(eq(educProvinces.id, provinceId));
    if (!province) throw fieldError('province_id', 'field.invalid_option');
    authorize(generationPolicy.create(actor, { institutionId: actor.scope.institutionId, centreId: actor.scope.centreId, educProvinceId: provinceId }));
  }

  /**
   * The batch's school, centre and option: the user's scope first (so a school-bound user sees
   * their batch; a scope is resolved, so a school's carries its centre), else the one every row
   * shares, else none.
   */
  private placement(scope: Scope, rows: Pick<CheckedCandidate, 'institutionId' | 'centreId' | 'optionId'>[]) {
    const only = (values: number[]) => (values.length && values.every((v) => v === values[0]) ? values[0]! : null);
    const institutionId = scope.institutionId ?? only(rows.map((r) => r.institutionId));
    const centreId = scope.centreId ?? only(rows.map((r) => r.centreId));
    return { institutionId, centreId, optionId: only(rows.map((r) => r.optionId)) };
  }
}

/** Where the file-only half of a list's check is kept: beside the list (`imports/<uuid>/`). */
function readListKey(listKey: string): string {
  return `${listKey.slice(0, listKey.lastIndexOf('/'))}/check.json`;
}

/** Changes whenever readRows changes what it reads: an older stored check is then ignored. */
const READ_LIST_VERSION = 1;

interface StoredReadList {
  version: number;
  /** SHA-256 (hex) of the list's and the zip's bytes it was read from. */
  list: string;
  photos: string | null;
  sessionYear: number;
  read: ReadList;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function photoKey(generationId: number, candidateCode: string): string {
  return `photos/${generationId}/${candidateCode}.jpg`;
}

async function insertImportation(
  tx: Tx,
  values: { generationId: number; kind: 'list' | 'append'; fileKey: string; photosKey: string | null; rowsTotal: number; createdBy: number },
): Promise<number> {
  try {
    const [row] = await tx
      .insert(importations)
      .values({ ...values, status: 'queued' })
      .returning({ id: importations.id });
    return row!.id;
  } catch (error) {
    // importations_active_key: an import of this batch is already queued or running.
    if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505')
      throw new AppError('conflict');
    throw error;
  }
}

async function readList(bytes: Buffer): Promise<Table> {
  try {
    return await readTable(bytes, HEADER_HINTS);
  } catch (error) {
    if (error instanceof UnreadableTable) throw fieldError('file', `field.import_${error.reason}`);
    throw error;
  }
}

async function readZip(bytes: Buffer): Promise<ZipArchive> {
  try {
    return await openZip(bytes);
  } catch {
    throw fieldError('photos', 'field.import_photos_unreadable');
  }
}

function fileHasErrors(count: number): AppError {
  return new AppError('validation_failed', { fields: { file: [{ key: 'field.import_file_has_errors', params: { count } }] } });
}
