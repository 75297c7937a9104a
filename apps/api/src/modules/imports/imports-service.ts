import { randomUUID } from 'node:crypto';
import { IMPORTATIONS_LISTED, IMPORTATIONS_RECENT_DAYS, type GenerationType } from '@sceau/contracts';
import { and, desc, eq, gt, inArray, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { educProvinces, examSessions, generationItems, generations, importations, institutions, templates } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { batchFor } from '../generations/batch-access.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';
import { importationPolicy } from '../../policies/importation-policy.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import type { Scope } from '../../policies/scope.ts';
import { templatePolicy } from '../../policies/template-policy.ts';
import { checkRows, readRows, type CheckedCandidate, type CheckOutcome, type ReadList } from './import-checker.ts';
import { ImportJob } from './import-job.ts';
import { fileHasErrors, readList, readListKey, readZip, recheckStoredList, storeReadList } from './list-files.ts';
import type { Table } from './table-reader.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface UploadedFiles {
  list: Buffer | null;
  photos: Buffer | null;
  /** The workbook's sheet to read (the form's `sheet`); by default the reader chooses. */
  sheet?: string | null;
}

export interface CheckResult extends CheckOutcome {
  generationId: number;
  format: Table['format'];
  sheet: Table['sheet'];
  sheets: Table['sheets'];
  ignored: Table['ignored'];
  /** The stored list's id (its `imports/<id>/` folder), for a list check. */
  listId?: string;
}

/**
 * Student lists (ADR 0060): a list is checked whole and stored with a draft batch; its import is a
 * durable job (import-job.ts) that writes every candidate in one transaction or none, exactly once.
 * The list's files are read and checked again by list-files.ts.
 */
export class ImportsService {
  private readonly importJob: ImportJob;
  /** The durable `import.candidates` job, for the platform's queue. */
  readonly job: ImportJob['job'];

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
    /** The platform's job queue (none in a tool that only reads). */
    queue: JobQueue | null = null,
  ) {
    this.importJob = new ImportJob(db, storage, log, queue);
    this.job = this.importJob.job;
  }

  // ------------------------------------------------------------ checks and drafts

  /**
   * Checks a list and stores it with a draft batch (status created), errors or not, so the user can
   * fix it and upload it again. With `generationId`, the file replaces that draft's list (and its
   * photos zip when one is sent; the earlier zip is kept otherwise). Without it, the user's own
   * untouched draft for the same template, session and province is reused (ADR 0143): its list,
   * stored check and zip are replaced by this check's files, so checking a list ten times leaves
   * one draft; drafts left untouched expire (jobs/sweeps.ts, `IMPORT_DRAFT_TTL_HOURS`).
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

    const table = await readList(files.list, files.sheet);
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
    const photosKey = files.photos ? `${folder}/photos.zip` : (draft?.sourcePhotosKey ?? null);
    // This check's own files (never the draft's earlier zip it keeps): deleted if no row comes to name them.
    const written = [listKey, readListKey(listKey), ...(files.photos ? [photosKey!] : [])];

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
    const { id, replaced } = await this.unlessRecorded(written, async () => {
      await this.storage.put(listKey, files.list!);
      if (files.photos) await this.storage.put(photosKey!, files.photos);
      await storeReadList(this.storage, listKey, files.list!, zipBytes, session.year, read, table.sheet);
      return this.db.transaction(async (tx) => {
        // A draft takes the new list: its row updated and the replacement audited.
        const replaceList = async (draftId: number, details: Record<string, unknown> = {}) => {
          await tx
            .update(generations)
            .set({ ...values, updatedAt: new Date() })
            .where(eq(generations.id, draftId));
          await recordAudit(
            tx,
            { action: 'generation.list_replaced', subjectType: 'generation', subjectId: draftId, details: { rows: outcome.rows, errors: outcome.problems.length, ...details } },
            actor,
          );
        };
        if (draft) {
          const [row] = await tx.select().from(generations).where(eq(generations.id, draft.id)).for('update');
          if (row?.status !== 'created' || (await this.hasListImportation(tx, draft.id))) throw new AppError('conflict');
          await replaceList(draft.id);
          const old = [row.sourceFileKey, row.sourceFileKey && readListKey(row.sourceFileKey), files.photos ? row.sourcePhotosKey : null].filter((k): k is string => !!k);
          return { id: draft.id, replaced: old };
        }
        // A new check without a draft named: the user's own untouched draft for the same template,
        // session and province takes it, with every file of its own (ADR 0143), rather than a new one.
        const reused = await this.reusableDraft(tx, actor, values);
        if (reused) {
          await replaceList(reused.id, { reused: true });
          const old = [reused.sourceFileKey, reused.sourceFileKey && readListKey(reused.sourceFileKey), reused.sourcePhotosKey].filter((k): k is string => !!k && k !== photosKey);
          return { id: reused.id, replaced: old };
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
    });
    // The draft's earlier files: the check stands whatever happens to them; one left is logged for an operator.
    for (const { key, error } of await this.storage.deleteMany(replaced)) this.log.warn({ err: error, key }, "could not delete a draft's replaced file");
    return { ...outcome, generationId: id, format: table.format, sheet: table.sheet, sheets: table.sheets, ignored: table.ignored, listId: listFolderId(listKey) };
  }

  /**
   * `start-import-process`: the stored list is checked again, then its import queued. With
   * `listId` (the check's), a draft that holds another list since (a later check reused it, ADR
   * 0143) is refused: the page would otherwise import a list it did not show.
   */
  async startImport(actor: Actor, generationId: number, title: string, listId?: string): Promise<number> {
    const scope = actor.scope;
    const batch = await batchFor(this.db, actor, generationId, generationPolicy.importList);
    if (batch.status !== 'created' || !batch.sourceFileKey) throw new AppError('conflict');
    const outcome = await recheckStoredList(this.db, this.storage, batch, scope, batch.sourceFileKey, batch.sourcePhotosKey);
    if (outcome.problems.length) throw fileHasErrors(outcome.problems.length);
    if (!outcome.candidates.length) throw fieldError('file', 'field.import_empty_file');
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (row?.status !== 'created' || (await this.hasListImportation(tx, generationId))) throw new AppError('conflict');
      if (listId !== undefined && listFolderId(row.sourceFileKey!) !== listId) throw fieldError('generation_id', 'field.import_list_replaced');
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
    const table = await readList(files.list, files.sheet);
    const zip = files.photos ? await readZip(files.photos) : null;
    const [session] = await this.db.select().from(examSessions).where(eq(examSessions.id, batch.sessionId));
    let read: ReadList;
    try {
      read = await readRows(table, { sessionYear: session!.year, zip });
    } finally {
      zip?.close();
    }
    const outcome = await checkRows(this.db, read, { sessionId: batch.sessionId, provinceId: batch.educProvinceId, scope });
    const result = { ...outcome, generationId, format: table.format, sheet: table.sheet, sheets: table.sheets, ignored: table.ignored };
    if (outcome.problems.length || !outcome.candidates.length) return { ...result, importationId: null };

    const folder = `imports/${randomUUID()}`;
    const fileKey = `${folder}/list.${table.format}`;
    const photosKey = files.photos ? `${folder}/photos.zip` : null;
    const written = [fileKey, readListKey(fileKey), ...(photosKey ? [photosKey] : [])];
    const importationId = await this.unlessRecorded(written, async () => {
      await this.storage.put(fileKey, files.list!);
      if (files.photos) await this.storage.put(photosKey!, files.photos);
      await storeReadList(this.storage, fileKey, files.list!, files.photos, session!.year, read, table.sheet);
      return this.db.transaction(async (tx) => {
        const id = await insertImportation(tx, { generationId, kind: 'append', fileKey, photosKey, rowsTotal: outcome.candidates.length, createdBy: actor.id });
        await recordAudit(
          tx,
          { action: 'generation.import_started', subjectType: 'generation', subjectId: generationId, details: { importation: id, rows: outcome.candidates.length, append: true } },
          actor,
        );
        return id;
      });
    });
    await this.queueImportation(importationId);
    return { ...result, importationId };
  }

  /**
   * Writes an upload's files and records them (`record`: the writes, then the transaction naming
   * them). When anything fails on the way (a write, a conflict found in the transaction, a
   * constraint, a lost connection), the files listed in `keys` are deleted before the error goes
   * on: a failed upload leaves no file that no row names. A file that cannot be deleted is logged
   * with its key (warn) and left; the error the caller sees is the first one.
   */
  private async unlessRecorded<T>(keys: readonly string[], record: () => Promise<T>): Promise<T> {
    try {
      return await record();
    } catch (error) {
      await Promise.all(
        keys.map((key) => this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'could not delete the file of an upload that was not recorded'))),
      );
      throw error;
    }
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
    await this.importJob.queueImportation(importationId);
  }

  /** At start: importations a crash left queued or running are sent again (the handler is idempotent). */
  async resumePending(): Promise<number> {
    return this.importJob.resumePending();
  }

  // ------------------------------------------------------------ helpers

  /** The batch if the user's scope holds it (else 404: its existence is not disclosed). */
  private async draft(actor: Actor, id: number) {
    const batch = await batchFor(this.db, actor, id, generationPolicy.importList);
    if (batch.status !== 'created' || (await this.hasListImportation(this.db, id))) throw new AppError('conflict');
    return batch;
  }

  /**
   * The actor's own draft for this template, session and province that nothing was ever imported
   * into (no importation of any kind, no candidate), still within what it may import into; the
   * most recently touched, locked (a start or a sweep waits, or skips it).
   */
  private async reusableDraft(tx: Tx, actor: Actor, place: { templateId: number; sessionId: number; educProvinceId: number }) {
    const rows = await tx
      .select()
      .from(generations)
      .where(
        and(
          eq(generations.createdBy, actor.id),
          eq(generations.status, 'created'),
          eq(generations.templateId, place.templateId),
          eq(generations.sessionId, place.sessionId),
          eq(generations.educProvinceId, place.educProvinceId),
          notExists(tx.select({ one: sql`1` }).from(importations).where(eq(importations.generationId, generations.id))),
          notExists(tx.select({ one: sql`1` }).from(generationItems).where(eq(generationItems.generationId, generations.id))),
        ),
      )
      .orderBy(desc(generations.updatedAt), desc(generations.id))
      .limit(5)
      .for('update', { skipLocked: true });
    return rows.find((row) => allowed(generationPolicy.importList(actor, row))) ?? null;
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

/** `imports/<id>/list.csv` → `<id>`. */
function listFolderId(listKey: string): string {
  return listKey.split('/')[1] ?? '';
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
