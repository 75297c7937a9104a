import { createHash } from 'node:crypto';
import type { GenerationStatus, PhotoEdits, ValidateAllFilter, ValidateDataBody } from '@sceau/contracts';
import { and, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { examSessions, generationItems, generations } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { moveGeneration } from '../generations/generation-status.ts';
import { batchFor } from '../generations/batch-access.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy, type BatchFacts } from '../../policies/generation-policy.ts';
import { allowed, authorize, type Decision } from '../../policies/policy.ts';
import { originalKeyOf, photoKey as importedPhotoKey, photoKeyFor, removeUnusedPhotos } from '../../lib/photo-files.ts';
import { BIRTH_AGE } from '../imports/row-values.ts';
import { applyPhotoEdits, readEditedImage, readUploadedPhoto } from './photo-editing.ts';
import {
  batchFilterValues,
  itemCondition,
  type ItemFilter,
  listValidationBatches,
  listValidationItems,
  pendingCondition,
  presentBatches,
  presentItems,
} from './validations-repository.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Item = typeof generationItems.$inferSelect;
type Target = { generation_id?: number; item?: number; items?: number[] };
export type Aspect = 'photo' | 'data';
type BatchRule = (actor: Actor, batch: BatchFacts) => Decision;
/** Which rule of the batch policy each aspect's changes answer to. */
const RULE: Record<Aspect, BatchRule> = { photo: generationPolicy.validatePhotos, data: generationPolicy.validateData };

const STATUS_COLUMN = { photo: 'photoStatus', data: 'dataStatus' } as const;

/** "Validate all pending" writes this many candidates per statement (ADR 0142), all in one transaction. */
export const VALIDATE_ALL_CHUNK = 5_000;

/** What a change did: the candidates changed and those left as they were. */
interface Outcome {
  changed: number[];
  skipped: number[];
}

/**
 * Photo and data validation (ADR 0070). Every change runs in one transaction that locks the batch,
 * refuses a batch not in validation, writes the candidates and their audit entries, then moves the
 * batch between "pending validation" and "ready for generation" as its candidates now allow.
 */
export class ValidationsService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    /** Where a file that could not be deleted is reported (warn, with its key), for an operator to find. */
    private readonly log: { warn(obj: object, msg?: string): void },
  ) {}

  /** The batch, held to one rule of its policy (404 when missing or outside the actor's scope). */
  async batch(actor: Actor, id: number, rule: BatchRule = generationPolicy.viewCandidates) {
    return batchFor(this.db, actor, id, rule);
  }

  /** A candidate (of `generationId` when given) whose batch the rule allows, else 404. */
  async item(actor: Actor, itemId: number, generationId?: number, rule: BatchRule = generationPolicy.viewCandidates): Promise<Item> {
    const [item] = await this.db.select().from(generationItems).where(eq(generationItems.id, itemId));
    if (!item || (generationId !== undefined && item.generationId !== generationId)) throw new AppError('not_found');
    await this.batch(actor, item.generationId, rule);
    return item;
  }

  async readPhoto(item: Item): Promise<Buffer> {
    const photo = item.photoKey ? await this.storage.get(item.photoKey) : null;
    if (!photo) throw new AppError('not_found');
    return photo;
  }

  /** A candidate's stored photo (of `generationId` when given), for whoever may see the batch's candidates. */
  async photoOf(actor: Actor, itemId: number, generationId?: number): Promise<Buffer> {
    return this.readPhoto(await this.item(actor, itemId, generationId));
  }

  /** The candidate's original photo (ADR 0147), for whoever may see its photo; 404 when none is kept. */
  async originalOf(actor: Actor, itemId: number, generationId?: number): Promise<Buffer> {
    const item = await this.item(actor, itemId, generationId);
    const original = item.photoKey ? await this.storage.get(originalKeyOf(item.photoKey)) : null;
    if (!original) throw new AppError('not_found');
    return original;
  }

  // ------------------------------------------------------------ lists

  /** A page of a batch's candidates, with the batch as the screens show it. */
  async itemsPage(actor: Actor, generationId: number, filter: ItemFilter, rule: BatchRule = generationPolicy.viewCandidates) {
    const batch = await this.batch(actor, generationId, rule);
    const [{ items, total }, [generation]] = await Promise.all([listValidationItems(this.db, batch.id, filter), presentBatches(this.db, [batch.id], actor)]);
    return { items, total, generation: generation! };
  }

  /** The schools, centres and options of a batch's candidates. */
  async filters(actor: Actor, generationId: number) {
    const batch = await this.batch(actor, generationId);
    return batchFilterValues(this.db, batch.id);
  }

  /** The actor's scope's batches in validation (or ready for generation). */
  async batches(actor: Actor, query: Parameters<typeof listValidationBatches>[2]) {
    return listValidationBatches(this.db, actor, query);
  }

  // ------------------------------------------------------------ photos

  async validatePhotos(actor: Actor, target: Target) {
    return this.change(actor, RULE.photo, target, async (tx, items) => {
      const outcome: Outcome = { changed: [], skipped: [] };
      for (const item of items) {
        if (item.rejected || !item.photoKey) {
          if (items.length === 1) throw item.rejected ? rejectedConflict() : fieldError('item', 'field.validation_no_photo');
          outcome.skipped.push(item.id);
          continue;
        }
        if (item.photoStatus === 'validated') continue;
        await tx.update(generationItems).set({ photoStatus: 'validated', updatedAt: new Date() }).where(eq(generationItems.id, item.id));
        await this.audit(tx, actor, 'validation.photo_validated', item, { from: item.photoStatus });
        outcome.changed.push(item.id);
      }
      return outcome;
    });
  }

  /** Stores a new photo (the editor's result) and validates it; the candidate's original is kept. */
  async replacePhoto(actor: Actor, target: Target & { item: number }, jpeg: Buffer, details: Record<string, unknown>) {
    return this.storePhoto(actor, target, jpeg, { status: 'validated', action: 'validation.photo_edited', details, original: 'kept' });
  }

  /**
   * The editor's result, validated: its settings applied to the stored photo (`edits`), or the
   * image it made (`image`, a data URL).
   */
  async editPhoto(actor: Actor, target: Target & { item: number }, change: { edits: PhotoEdits } | { image: string }) {
    const item = await this.item(actor, target.item, target.generation_id, generationPolicy.validatePhotos);
    let jpeg: Buffer;
    if ('edits' in change) {
      if (!item.photoKey) throw new AppError('validation_failed', { fields: { item: ['field.validation_no_photo'] } });
      const source = change.edits.source === 'original' ? await this.storage.get(originalKeyOf(item.photoKey)) : await this.readPhoto(item);
      if (!source) throw new AppError('validation_failed', { fields: { item: ['field.validation_no_photo'] } });
      jpeg = await applyPhotoEdits(source, change.edits);
    } else {
      jpeg = await readEditedImage(change.image);
    }
    return this.replacePhoto(actor, target, jpeg, 'edits' in change ? { edits: change.edits } : { source: 'image' });
  }

  /**
   * Stores a photo uploaded for a candidate (imported without one, or a better one): it waits for
   * validation like an imported photo, so a validated candidate goes back to pending.
   */
  async uploadPhoto(actor: Actor, target: Target & { item: number }, jpeg: Buffer, original: Buffer | null = null) {
    return this.storePhoto(actor, target, jpeg, { status: 'pending', action: 'validation.photo_uploaded', details: { source: 'upload' }, original });
  }

  /**
   * An uploaded file (`bytes`, null when none came) as a candidate's new photo. A candidate outside
   * the scope is as unknown as one that does not exist; a closed batch takes no photo.
   */
  async uploadTo(actor: Actor, itemId: number, bytes: Buffer | null) {
    const item = await this.item(actor, itemId);
    const batch = await this.batch(actor, item.generationId);
    if (!allowed(generationPolicy.validatePhotos(actor, batch))) throw new AppError('conflict', { fields: { generation_id: ['field.validation_batch_status'] } });
    if (!bytes || bytes.length === 0) throw fieldError('photo', 'field.file_required');
    const { photo, original } = await readUploadedPhoto(bytes);
    // The upload is the candidate's new original (the editor crops from it); one at the box's size is its own.
    return this.uploadPhoto(actor, { generation_id: item.generationId, item: item.id }, photo, original);
  }

  /**
   * Writes the photo under a key of its own (`newPhotoKey`), and its original beside it (`originalKeyOf`),
   * before the row points at it: the candidate's own files are not touched. All or nothing (ADR
   * 0060, amendment of 2026-11-27): if the change fails, the files written are deleted and the
   * candidate keeps its photo and original; once it commits, the photo it replaces is deleted with
   * its original. `original`: the new photo's original (null: it is its own), or `kept`, an edit,
   * which never loses the original the editor crops from (ADR 0147): the earlier photo's original,
   * or the earlier photo itself when it was its own.
   */
  private async storePhoto(
    actor: Actor,
    target: Target & { item: number },
    jpeg: Buffer,
    outcome: { status: 'validated' | 'pending'; action: string; details: Record<string, unknown>; original: Buffer | null | 'kept' },
  ) {
    const sha = createHash('sha256').update(jpeg).digest('hex');
    let written: string | null = null;
    let superseded: (string | null)[] = [];
    try {
      const result = await this.change(actor, RULE.photo, target, async (tx, [item]) => {
        if (item!.rejected) throw rejectedConflict();
        const previous = item!.photoKey;
        // The same photo again writes nothing; another gets a key of its own.
        const key = photoKeyFor(previous, item!.generationId, item!.candidateCode, jpeg);
        if (key !== previous) {
          const original = outcome.original === 'kept' ? await this.keptOriginal(previous) : outcome.original;
          written = key;
          if (original) await this.storage.put(originalKeyOf(key), original);
          await this.storage.put(key, jpeg);
          // What the candidate showed, and the import's own file (older code kept its original for every later photo).
          superseded = [previous, importedPhotoKey(item!.generationId, item!.candidateCode)];
        }
        await tx.update(generationItems).set({ photoKey: key, photoStatus: outcome.status, updatedAt: new Date() }).where(eq(generationItems.id, item!.id));
        await this.audit(tx, actor, outcome.action, item!, { from: item!.photoStatus, before: previous, after: key, sha256: sha, bytes: jpeg.length, ...outcome.details });
        return { changed: [item!.id], skipped: [] };
      });
      await this.removeUnused(superseded);
      return result;
    } catch (error) {
      // A key some row names (the same photo shown elsewhere) is kept.
      if (written) await this.removeUnused([written]);
      throw error;
    }
  }

  /** The original an edit keeps: the shown photo's original, or the photo itself when it is its own. */
  private async keptOriginal(photoKey: string | null): Promise<Buffer | null> {
    if (!photoKey) return null;
    return (await this.storage.get(originalKeyOf(photoKey))) ?? (await this.storage.get(photoKey));
  }

  /** Photo files no row names deleted; what cannot be is logged, never thrown (the change stands or its error goes on). */
  private async removeUnused(keys: readonly (string | null)[]): Promise<void> {
    if (!keys.length) return;
    await removeUnusedPhotos(this.db, this.storage, keys, this.log).catch((err: unknown) => this.log.warn({ err, keys }, 'could not delete the photo files a change left'));
  }

  // ------------------------------------------------------------ data

  async validateData(actor: Actor, body: ValidateDataBody) {
    return this.change(actor, RULE.data, body, async (tx, items, batch) => {
      const outcome: Outcome = { changed: [], skipped: [] };
      const edits = dataEdits(body);
      if (edits.birthDate) await checkBirthDate(tx, batch.sessionId, edits.birthDate);
      for (const item of items) {
        if (item.rejected) {
          if (items.length === 1) throw rejectedConflict();
          outcome.skipped.push(item.id);
          continue;
        }
        const changes = Object.fromEntries(
          Object.entries(edits)
            .filter(([k, v]) => item[k as keyof typeof edits] !== v)
            .map(([k, v]) => [k, { from: item[k as keyof typeof edits], to: v }]),
        );
        if (item.dataStatus === 'validated' && Object.keys(changes).length === 0) continue;
        await tx
          .update(generationItems)
          .set({ ...edits, dataStatus: 'validated', updatedAt: new Date() })
          .where(eq(generationItems.id, item.id));
        await this.audit(tx, actor, 'validation.data_validated', item, { from: item.dataStatus, ...(Object.keys(changes).length ? { changes } : {}) });
        outcome.changed.push(item.id);
      }
      return outcome;
    });
  }

  // ------------------------------------------------------------ every pending candidate of a filter

  /**
   * The candidates "validate all pending" would validate on one side: of the filter, not rejected,
   * that side not validated yet, and (photos) with a photo. `without` are those the photo side leaves
   * pending for lack of one.
   */
  private pendingOf(aspect: Aspect, generationId: number, filter: ValidateAllFilter): { target: SQL; without: SQL | undefined } {
    const column = aspect === 'photo' ? generationItems.photoStatus : generationItems.dataStatus;
    const base = and(itemCondition(generationId, { ...filter, on: aspect }), eq(generationItems.rejected, false), ne(column, 'validated'));
    return aspect === 'photo'
      ? { target: and(base, isNotNull(generationItems.photoKey))!, without: and(base, isNull(generationItems.photoKey)) }
      : { target: base!, without: undefined };
  }

  /** How many candidates "validate all pending" would validate now (the count the confirmation shows). */
  async pendingCount(actor: Actor, aspect: Aspect, generationId: number, filter: ValidateAllFilter) {
    const batch = await this.batch(actor, generationId);
    const { target, without } = this.pendingOf(aspect, batch.id, filter);
    const [row] = await this.db
      .select({
        count: sql<number>`count(*) filter (where ${target})`.mapWith(Number),
        without: without ? sql<number>`count(*) filter (where ${without})`.mapWith(Number) : sql<number>`0`.mapWith(Number),
      })
      .from(generationItems)
      .where(eq(generationItems.generationId, batch.id));
    return { count: row?.count ?? 0, without_photo: row?.without ?? 0 };
  }

  /**
   * Validates every pending candidate of the filter on one side, unchanged, as validating each one
   * would (rejected, validated and photo-less candidates left alone): in one transaction holding the
   * batch, by set-based UPDATEs of at most VALIDATE_ALL_CHUNK rows each (a batch may hold 100,000
   * candidates; each statement stays well within the statement timeout), audited once on the batch
   * with the count and the filter.
   */
  async validateAll(actor: Actor, aspect: Aspect, generationId: number, filter: ValidateAllFilter) {
    const column = aspect === 'photo' ? generationItems.photoStatus : generationItems.dataStatus;
    const result = await this.db.transaction(async (tx) => {
      const [batch] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (!batch) throw new AppError('not_found');
      const decision = RULE[aspect](actor, batch);
      if (decision === 'state') throw new AppError('conflict', { fields: { generation_id: ['field.validation_batch_status'] } });
      authorize(decision);
      const { target, without } = this.pendingOf(aspect, generationId, filter);
      let count = 0;
      for (;;) {
        const chunk = tx.select({ id: generationItems.id }).from(generationItems).where(target).limit(VALIDATE_ALL_CHUNK);
        const { rowCount } = await tx
          .update(generationItems)
          .set({ [STATUS_COLUMN[aspect]]: 'validated', updatedAt: new Date() })
          .where(and(inArray(generationItems.id, chunk), ne(column, 'validated')));
        count += rowCount ?? 0;
        if ((rowCount ?? 0) < VALIDATE_ALL_CHUNK) break;
      }
      const [left] = without
        ? await tx
            .select({ n: sql<number>`count(*)`.mapWith(Number) })
            .from(generationItems)
            .where(without)
        : [{ n: 0 }];
      if (count > 0) {
        const { centre, center: _center, ...rest } = filter as ValidateAllFilter & { center?: number };
        await recordAudit(
          tx,
          {
            action: `validation.${aspect}_validated_all`,
            subjectType: 'generation',
            subjectId: generationId,
            details: { generation_id: generationId, count, filter: Object.fromEntries(Object.entries({ ...rest, centre }).filter(([, v]) => v !== undefined && v !== '')) },
          },
          actor,
        );
      }
      await this.settleBatch(tx, actor, generationId, batch.status);
      return { count, without_photo: left?.n ?? 0 };
    });
    const [generation] = await presentBatches(this.db, [generationId], actor);
    return { ...result, generation: generation! };
  }

  // ------------------------------------------------------------ rejection and reopening

  /** Rejects a candidate for its photo or its data: it leaves the batch's count of diplomas to make. */
  async reject(actor: Actor, aspect: Aspect, target: Target & { item: number }, reason: string) {
    return this.change(actor, RULE[aspect], target, async (tx, [item]) => {
      await tx
        .update(generationItems)
        .set({ [STATUS_COLUMN[aspect]]: 'rejected', rejected: true, rejectionReason: reason, rejectedBy: actor.id, rejectedAt: new Date(), updatedAt: new Date() })
        .where(eq(generationItems.id, item!.id));
      await this.audit(tx, actor, `validation.${aspect}_rejected`, item!, { from: item![STATUS_COLUMN[aspect]], reason });
      return { changed: [item!.id], skipped: [] };
    });
  }

  /** Puts a candidate's photo or data back to pending; no longer rejected unless the other is. */
  async reopen(actor: Actor, aspect: Aspect, target: Target & { item: number }) {
    return this.change(actor, RULE[aspect], target, async (tx, [item]) => {
      const other = aspect === 'photo' ? item!.dataStatus : item!.photoStatus;
      const stillRejected = other === 'rejected';
      await tx
        .update(generationItems)
        .set({
          [STATUS_COLUMN[aspect]]: 'pending',
          updatedAt: new Date(),
          ...(stillRejected ? {} : { rejected: false, rejectionReason: null, rejectedBy: null, rejectedAt: null }),
        })
        .where(eq(generationItems.id, item!.id));
      await this.audit(tx, actor, `validation.${aspect}_reopened`, item!, { from: item![STATUS_COLUMN[aspect]], was_rejected: item!.rejected });
      return { changed: [item!.id], skipped: [] };
    });
  }

  // ------------------------------------------------------------ the common path

  private async change(actor: Actor, rule: BatchRule, target: Target, apply: (tx: Tx, items: Item[], batch: typeof generations.$inferSelect) => Promise<Outcome>) {
    const ids = [...new Set(target.items ?? [target.item!])];
    const [first] = await this.db.select({ generationId: generationItems.generationId }).from(generationItems).where(eq(generationItems.id, ids[0]!));
    const generationId = target.generation_id ?? first?.generationId;
    if (generationId === undefined) throw new AppError('not_found');

    const outcome = await this.db.transaction(async (tx) => {
      const [batch] = await tx.select().from(generations).where(eq(generations.id, generationId)).for('update');
      if (!batch) throw new AppError('not_found');
      // The policy decides on the locked row; a closed batch is named on its field.
      const decision = rule(actor, batch);
      if (decision === 'state') throw new AppError('conflict', { fields: { generation_id: ['field.validation_batch_status'] } });
      authorize(decision);
      const items = await tx
        .select()
        .from(generationItems)
        .where(and(inArray(generationItems.id, ids), eq(generationItems.generationId, generationId)))
        .for('update');
      // A candidate of another batch is as unknown as one that does not exist.
      if (items.length !== ids.length) throw new AppError('not_found');
      items.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
      const result = await apply(tx, items, batch);
      await this.settleBatch(tx, actor, generationId, batch.status);
      return result;
    });
    const [items, [generation]] = await Promise.all([presentItems(this.db, ids), presentBatches(this.db, [generationId], actor)]);
    return { ...outcome, items, generation: generation! };
  }

  /**
   * Ready for generation when no candidate left (not rejected) is pending and at least one is left;
   * back to pending validation otherwise.
   */
  private async settleBatch(tx: Tx, actor: Actor, generationId: number, status: GenerationStatus) {
    const [row] = await tx
      .select({
        pending: sql<number>`count(*) filter (where ${pendingCondition})`.mapWith(Number),
        kept: sql<number>`count(*) filter (where not ${generationItems.rejected})`.mapWith(Number),
      })
      .from(generationItems)
      .where(eq(generationItems.generationId, generationId));
    const ready = row!.pending === 0 && row!.kept > 0;
    if (ready && status === 'pending_validation') await moveGeneration(tx, generationId, 'ready_for_generation', { by: actor, reason: 'validation_complete' });
    if (!ready && status === 'ready_for_generation') await moveGeneration(tx, generationId, 'pending_validation', { by: actor, reason: 'validation_reopened' });
  }

  private audit(tx: Tx, actor: Actor, action: string, item: Item, details: Record<string, unknown>) {
    return recordAudit(
      tx,
      { action, subjectType: 'generation_item', subjectId: item.id, details: { generation_id: item.generationId, candidate_code: item.candidateCode, ...details } },
      actor,
    );
  }
}

function rejectedConflict() {
  return new AppError('conflict', { fields: { item: ['field.validation_item_rejected'] } });
}

/** The data form's fields, as columns (only those sent). */
function dataEdits(body: ValidateDataBody) {
  const edits: Partial<Pick<Item, 'lastName' | 'middleName' | 'firstName' | 'birthPlace' | 'birthDate' | 'gender'>> = {};
  if (body.last_name !== undefined) edits.lastName = body.last_name.normalize('NFC').replace(/’/g, "'");
  if (body.middle_name !== undefined) edits.middleName = body.middle_name?.normalize('NFC').replace(/’/g, "'") ?? null;
  if (body.first_name !== undefined) edits.firstName = body.first_name.normalize('NFC').replace(/’/g, "'");
  if (body.birth_place !== undefined) edits.birthPlace = body.birth_place.normalize('NFC');
  if (body.birth_date !== undefined) edits.birthDate = body.birth_date;
  if (body.gender !== undefined) edits.gender = body.gender;
  return edits;
}

/** The same plausibility as the list import: a candidate of that session's exam is 14 to 70. */
async function checkBirthDate(tx: Tx, sessionId: number, birthDate: string) {
  const [session] = await tx.select({ year: examSessions.year }).from(examSessions).where(eq(examSessions.id, sessionId));
  const age = session!.year - Number(birthDate.slice(0, 4));
  if (age < BIRTH_AGE.min || age > BIRTH_AGE.max || new Date(`${birthDate}T00:00:00Z`).getTime() > Date.now())
    throw fieldError('birth_date', { key: 'field.validation_birth_date_implausible', params: { min: BIRTH_AGE.min, max: BIRTH_AGE.max } });
}
