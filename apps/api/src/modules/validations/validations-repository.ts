import { createHash } from 'node:crypto';
import { endpoints, pathOf, VALIDATION_OPEN_STATUSES, type ItemValidationState, type ValidationBatchView, type ValidationItemView } from '@sceau/contracts';
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { byName, foldedContains, foldedOf } from '../../db/schema/folded.ts';
import { candidateMatches, selectBatchHeaders } from '../generations/generations-repository.ts';
import { centres, generationItems, generations, institutions, options, users } from '../../db/schema.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy } from '../../policies/generation-policy.ts';

type Reader = Pick<Db, 'select'>;
type Item = typeof generationItems.$inferSelect;

/** Where the photo is served; `v` changes with the photo, so a browser cache never shows an old one. */
export function photoUrl(item: Pick<Item, 'id' | 'generationId' | 'photoKey'>): string | null {
  if (!item.photoKey) return null;
  const v = createHash('sha256').update(item.photoKey).digest('hex').slice(0, 12);
  return `/api${pathOf(endpoints.validations.photo, { generationId: item.generationId, itemId: item.id })}?v=${v}`;
}

export function candidateState(item: Pick<Item, 'rejected' | 'photoStatus' | 'dataStatus'>): ItemValidationState {
  if (item.rejected) return 'rejected';
  return item.photoStatus === 'validated' && item.dataStatus === 'validated' ? 'validated' : 'pending';
}

/** Non-rejected candidates whose photo or data is not validated yet. */
export const pendingCondition = sql`not ${generationItems.rejected} and (${generationItems.photoStatus} <> 'validated' or ${generationItems.dataStatus} <> 'validated')`;

export interface ItemFilter {
  page: number;
  perPage: number;
  search?: string;
  option?: number;
  institution?: number;
  centre?: number;
  /** The photo's or the data's state, with `on`. */
  status?: ItemValidationState;
  on?: 'photo' | 'data';
  rejectedOnly?: boolean;
}

/** The candidates of a batch that a list's filter (without its page) keeps, as a SQL condition. */
export function itemCondition(generationId: number, filter: Omit<ItemFilter, 'page' | 'perPage'>): SQL | undefined {
  const conditions: SQL[] = [eq(generationItems.generationId, generationId)];
  if (filter.option) conditions.push(eq(generationItems.optionId, filter.option));
  if (filter.institution) conditions.push(eq(generationItems.institutionId, filter.institution));
  if (filter.centre) conditions.push(eq(generationItems.centreId, filter.centre));
  if (filter.rejectedOnly) conditions.push(eq(generationItems.rejected, true));
  if (filter.status && filter.on) conditions.push(eq(filter.on === 'photo' ? generationItems.photoStatus : generationItems.dataStatus, filter.status));
  // Every word somewhere in the names or the code, accents and case aside: "nsele jean" finds N'SÉLÉ Ndombasi Jean-Baptiste.
  for (const word of (filter.search ?? '').split(/\s+/).filter(Boolean).slice(0, 6)) {
    conditions.push(candidateMatches(word));
  }
  return and(...conditions);
}

export async function listValidationItems(db: Reader, generationId: number, filter: ItemFilter): Promise<{ items: ValidationItemView[]; total: number }> {
  const where = itemCondition(generationId, filter);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(generationItems).where(where);
  const ids = await db
    .select({ id: generationItems.id })
    .from(generationItems)
    .where(where)
    .orderBy(
      ...(filter.rejectedOnly ? [desc(generationItems.rejectedAt)] : []),
      asc(byName(generationItems.lastName)),
      asc(byName(generationItems.firstName)),
      asc(generationItems.id),
    )
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage);
  const items = await presentItems(
    db,
    ids.map((r) => r.id),
  );
  return { items, total };
}

/** The candidates as the validation screens show them, in the order of `ids`. */
export async function presentItems(db: Reader, ids: number[]): Promise<ValidationItemView[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      item: generationItems,
      option: { id: options.id, name: options.name },
      institution: { id: institutions.id, name: institutions.name },
      centre: { id: centres.id, name: centres.name },
      rejecter: { id: users.id, name: users.name, firstName: users.firstName },
    })
    .from(generationItems)
    .innerJoin(options, eq(options.id, generationItems.optionId))
    .innerJoin(institutions, eq(institutions.id, generationItems.institutionId))
    .innerJoin(centres, eq(centres.id, generationItems.centreId))
    .leftJoin(users, eq(users.id, generationItems.rejectedBy))
    .where(inArray(generationItems.id, ids));
  const byId = new Map(
    rows.map(({ item, option, institution, centre, rejecter }) => {
      const view: ValidationItemView = {
        id: item.id,
        generation_id: item.generationId,
        candidate_code: item.candidateCode,
        last_name: item.lastName,
        middle_name: item.middleName,
        first_name: item.firstName,
        birth_date: item.birthDate,
        birth_place: item.birthPlace,
        gender: item.gender,
        option,
        institution,
        centre,
        photo_status: item.photoStatus,
        data_status: item.dataStatus,
        status: candidateState(item),
        photo_url: photoUrl(item),
        rejected: item.rejected,
        rejection_reason: item.rejected ? item.rejectionReason : null,
        rejected_by: item.rejected && rejecter?.id ? { id: rejecter.id, name: [rejecter.firstName, rejecter.name].filter(Boolean).join(' ') } : null,
        rejected_at: item.rejected ? (item.rejectedAt?.toISOString() ?? null) : null,
        updated_at: item.updatedAt.toISOString(),
      };
      return [item.id, view] as const;
    }),
  );
  return ids.map((id) => byId.get(id)).filter((v): v is ValidationItemView => v !== undefined);
}

/** The schools, centres and options the batch's candidates belong to, each once, by name (the lists' filters). */
export async function batchFilterValues(db: Pick<Db, 'selectDistinct'>, generationId: number) {
  const ofBatch = eq(generationItems.generationId, generationId);
  const [schools, centreRows, optionRows] = await Promise.all([
    db
      .selectDistinct({ id: institutions.id, name: institutions.name })
      .from(generationItems)
      .innerJoin(institutions, eq(institutions.id, generationItems.institutionId))
      .where(ofBatch)
      .orderBy(asc(institutions.name), asc(institutions.id)),
    db
      .selectDistinct({ id: centres.id, name: centres.name })
      .from(generationItems)
      .innerJoin(centres, eq(centres.id, generationItems.centreId))
      .where(ofBatch)
      .orderBy(asc(centres.name), asc(centres.id)),
    db
      .selectDistinct({ id: options.id, name: options.name })
      .from(generationItems)
      .innerJoin(options, eq(options.id, generationItems.optionId))
      .where(ofBatch)
      .orderBy(asc(options.name), asc(options.id)),
  ]);
  // DISTINCT sorts only by what it selects: the Unicode order (ÉKOFO before TSHIBANGU) is applied here.
  const byLocale = (a: { name: string }, b: { name: string }) => NAME_ORDER.compare(a.name, b.name);
  return { institutions: schools.sort(byLocale), centres: centreRows.sort(byLocale), options: optionRows.sort(byLocale) };
}

/** Names in the order PostgreSQL's NAME_COLLATION gives them (ICU root), for lists sorted in code. */
const NAME_ORDER = new Intl.Collator('und', { sensitivity: 'base' });

/**
 * One side's counters partition the candidates: a rejected candidate counts as rejected on both
 * sides (the photo page and the data page show it so), the others as their side stands. A rejected
 * candidate's other side is left pending but waits for nobody.
 */
const state = (column: typeof generationItems.photoStatus | typeof generationItems.dataStatus, value: ItemValidationState) =>
  value === 'rejected'
    ? sql<number>`count(*) filter (where ${generationItems.rejected} or ${column} = 'rejected')`.mapWith(Number)
    : sql<number>`count(*) filter (where not ${generationItems.rejected} and ${column} = ${value})`.mapWith(Number);

/** The batches with their validation counters, in the order of `ids`. */
export async function presentBatches(db: Reader, ids: number[], actor: Actor): Promise<ValidationBatchView[]> {
  if (ids.length === 0) return [];
  const rows = await selectBatchHeaders(db, ids);
  const counts = await db
    .select({
      generationId: generationItems.generationId,
      items: count(),
      photoPending: state(generationItems.photoStatus, 'pending'),
      photoValidated: state(generationItems.photoStatus, 'validated'),
      photoRejected: state(generationItems.photoStatus, 'rejected'),
      dataPending: state(generationItems.dataStatus, 'pending'),
      dataValidated: state(generationItems.dataStatus, 'validated'),
      dataRejected: state(generationItems.dataStatus, 'rejected'),
      rejected: sql<number>`count(*) filter (where ${generationItems.rejected})`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${pendingCondition})`.mapWith(Number),
    })
    .from(generationItems)
    .where(inArray(generationItems.generationId, ids))
    .groupBy(generationItems.generationId);
  const byId = new Map(
    rows.map(({ g, session, province, institution, centre }) => {
      const c = counts.find((x) => x.generationId === g.id);
      const items = c?.items ?? 0;
      const rejected = c?.rejected ?? 0;
      const pending = c?.pending ?? 0;
      const view: ValidationBatchView = {
        id: g.id,
        title: g.title,
        status: g.status,
        session,
        province,
        institution: institution?.id ? institution : null,
        centre: centre?.id ? centre : null,
        created_at: g.createdAt.toISOString(),
        counts: {
          items,
          photos: { pending: c?.photoPending ?? 0, validated: c?.photoValidated ?? 0, rejected: c?.photoRejected ?? 0 },
          data: { pending: c?.dataPending ?? 0, validated: c?.dataValidated ?? 0, rejected: c?.dataRejected ?? 0 },
          candidates: { pending, validated: items - rejected - pending, rejected },
        },
        open: (VALIDATION_OPEN_STATUSES as readonly string[]).includes(g.status),
        abilities: generationPolicy.abilities(actor, g),
      };
      return [g.id, view] as const;
    }),
  );
  return ids.map((id) => byId.get(id)).filter((v): v is ValidationBatchView => v !== undefined);
}

/** Batches in validation (or just validated) within `scope`, newest first. */
export async function listValidationBatches(
  db: Reader,
  actor: Actor,
  filter: { page: number; perPage: number; search?: string; status?: (typeof VALIDATION_OPEN_STATUSES)[number] },
) {
  const conditions: (SQL | undefined)[] = [generationPolicy.visibleCondition(actor), inArray(generations.status, filter.status ? [filter.status] : [...VALIDATION_OPEN_STATUSES])];
  if (filter.search) {
    conditions.push(or(foldedContains(foldedOf(generations.title), filter.search), sql`${generations.id}::text = ${filter.search}`));
  }
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(generations).where(where);
  const rows = await db
    .select({ id: generations.id })
    .from(generations)
    .where(where)
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage);
  return {
    views: await presentBatches(
      db,
      rows.map((r) => r.id),
      actor,
    ),
    total,
  };
}
