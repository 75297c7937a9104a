import type { GenerationItemView, GenerationView } from '@sceau/contracts';
import { normaliseSerial } from '@sceau/credential';
import { aliasedTable, and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { byName, foldedContains, foldedOf } from '../../db/schema/folded.ts';
import type { Actor } from '../../policies/actor.ts';
import { generationPolicy, type SigningKeyFacts } from '../../policies/generation-policy.ts';
import type { MinistryKeys } from '../keys/ministry-keys.ts';
import { batchSigningKeys } from './batch-access.ts';
import { centres, diplomas, educProvinces, examSessions, generationItems, generations, institutions, options } from '../../db/schema.ts';

const batchInstitution = aliasedTable(institutions, 'batch_institution');
const batchCentre = aliasedTable(centres, 'batch_centre');
const batchOption = aliasedTable(options, 'batch_option');

/**
 * A candidate whose names or code contain `text`, accents, case and punctuation aside (the search of
 * every candidate list): "ekofo" finds ÉKOFO, "nsele" N'SELE. Uses generation_items_search_idx (ADR 0139).
 */
export function candidateMatches(text: string): SQL {
  return foldedContains(foldedOf(generationItems.lastName, generationItems.middleName, generationItems.firstName, generationItems.candidateCode), text);
}

export async function listGenerations(db: Db, actor: Actor, where: SQL | undefined, page: number, perPage: number, keys: SigningKeys = null) {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(generations).where(where);
  const rows = await db
    .select({ id: generations.id })
    .from(generations)
    .where(where)
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return {
    views: await presentGenerations(
      db,
      rows.map((r) => r.id),
      actor,
      keys,
    ),
    total,
  };
}

/**
 * Batches with the names of their session, province, school, centre and option: the header every
 * batch view starts from (the batch page, the dashboard, the validation screens).
 */
export async function selectBatchHeaders(db: Pick<Db, 'select'>, ids: number[]) {
  return db
    .select({
      g: generations,
      session: { id: examSessions.id, name: examSessions.name },
      province: { id: educProvinces.id, name: educProvinces.name },
      institution: { id: batchInstitution.id, name: batchInstitution.name },
      centre: { id: batchCentre.id, name: batchCentre.name },
      option: { id: batchOption.id, name: batchOption.name },
    })
    .from(generations)
    .innerJoin(examSessions, eq(examSessions.id, generations.sessionId))
    .innerJoin(educProvinces, eq(educProvinces.id, generations.educProvinceId))
    .leftJoin(batchInstitution, eq(batchInstitution.id, generations.institutionId))
    .leftJoin(batchCentre, eq(batchCentre.id, generations.centreId))
    .leftJoin(batchOption, eq(batchOption.id, generations.optionId))
    .where(inArray(generations.id, ids));
}

/** The platform's signing keys (none in a process without an identity: nothing is signed there). */
type SigningKeys = Pick<MinistryKeys, 'active'> | null;

/**
 * Batches as the API shows them to `actor`, with what it may do on each (its policy's abilities) and
 * why an action is refused when the policy says why. The signing keys of a batch awaiting its
 * signature are read (one row each at most) so that `sign` says whether it can happen (ADR 0148).
 */
export async function presentGenerations(db: Db, ids: number[], actor: Actor, keys: SigningKeys = null): Promise<GenerationView[]> {
  if (ids.length === 0) return [];
  const rows = await selectBatchHeaders(db, ids);
  const signingKeys = new Map<number, SigningKeyFacts | undefined>();
  for (const { g } of rows) if (g.status === 'ready_for_signature' && g.signatureStatus === 'not_started') signingKeys.set(g.id, await batchSigningKeys(db, g.id, keys));
  const itemCounts = await db
    .select({
      generationId: generationItems.generationId,
      items: count(),
      rejected: sql<number>`count(*) filter (where ${generationItems.rejected})`.mapWith(Number),
    })
    .from(generationItems)
    .where(inArray(generationItems.generationId, ids))
    .groupBy(generationItems.generationId);
  const diplomaCounts = await db
    .select({ generationId: diplomas.generationId, n: count() })
    .from(diplomas)
    .where(inArray(diplomas.generationId, ids))
    .groupBy(diplomas.generationId);
  const byId = new Map(
    rows.map(({ g, session, province, institution, centre, option }) => {
      const c = itemCounts.find((x) => x.generationId === g.id);
      const { abilities, refusals } = generationPolicy.judge(actor, g, signingKeys.get(g.id));
      const view: GenerationView = {
        id: g.id,
        type: g.type,
        title: g.title,
        template_id: g.templateId,
        session,
        province,
        institution: institution?.id ? institution : null,
        centre: centre?.id ? centre : null,
        option: option?.id ? option : null,
        status: g.status,
        signature_status: g.signatureStatus,
        progress: { done: g.progressDone, total: g.progressTotal },
        counts: { items: c?.items ?? 0, rejected: c?.rejected ?? 0, diplomas: diplomaCounts.find((x) => x.generationId === g.id)?.n ?? 0 },
        merkle_root: g.merkleRoot,
        anchor:
          g.anchorTxHash && g.anchorChainId && g.anchorContract && g.anchorBlockNumber !== null && g.anchoredAt
            ? { chain_id: g.anchorChainId, contract: g.anchorContract, tx_hash: g.anchorTxHash, block_number: g.anchorBlockNumber, anchored_at: g.anchoredAt.toISOString() }
            : null,
        last_error: g.lastError,
        created_at: g.createdAt.toISOString(),
        published_at: g.publishedAt?.toISOString() ?? null,
        revoked_at: g.revokedAt?.toISOString() ?? null,
        revocation_reason: g.revocationReason,
        abilities,
        refusals,
      };
      return [g.id, view] as const;
    }),
  );
  return ids.map((id) => byId.get(id)).filter((v): v is GenerationView => v !== undefined);
}

export async function listItems(
  db: Db,
  generationId: number,
  filter: { page: number; perPage: number; search?: string; institution?: number; centre?: number },
): Promise<{ items: GenerationItemView[]; total: number }> {
  const conditions: SQL[] = [eq(generationItems.generationId, generationId)];
  if (filter.institution) conditions.push(eq(generationItems.institutionId, filter.institution));
  if (filter.centre) conditions.push(eq(generationItems.centreId, filter.centre));
  if (filter.search) {
    // A serial, however typed ("de 2026 0428715 8"), finds its diploma; anything else searches names and codes.
    const serial = normaliseSerial(filter.search);
    conditions.push(
      serial ? sql`exists (select 1 from ${diplomas} where ${diplomas.itemId} = ${generationItems.id} and ${diplomas.serial} = ${serial})` : candidateMatches(filter.search),
    );
  }
  const where = and(...conditions);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(generationItems).where(where);
  const rows = await db
    .select({
      item: generationItems,
      option: { id: options.id, name: options.name },
      institution: { id: institutions.id, name: institutions.name },
      centre: { id: centres.id, name: centres.name },
      // Only what the list shows: a page never reads the diplomas' credentials (ADR 0154).
      diploma: { id: diplomas.id, serial: diplomas.serial, pdfKey: diplomas.pdfKey, revokedAt: diplomas.revokedAt, downloads: diplomas.downloads },
      batchRevokedAt: generations.revokedAt,
    })
    .from(generationItems)
    .innerJoin(options, eq(options.id, generationItems.optionId))
    .innerJoin(institutions, eq(institutions.id, generationItems.institutionId))
    .innerJoin(centres, eq(centres.id, generationItems.centreId))
    .leftJoin(diplomas, eq(diplomas.itemId, generationItems.id))
    .innerJoin(generations, eq(generations.id, generationItems.generationId))
    .where(where)
    .orderBy(asc(byName(generationItems.lastName)), asc(byName(generationItems.firstName)), asc(generationItems.id))
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage);
  return {
    total,
    items: rows.map(({ item, option, institution, centre, diploma, batchRevokedAt }) => ({
      id: item.id,
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
      percentage: item.percentageTenths / 10,
      photo_status: item.photoStatus,
      data_status: item.dataStatus,
      rejected: item.rejected,
      rejection_reason: item.rejectionReason,
      // A diploma of a revoked batch is revoked too (the batch's root is revoked on the registry).
      diploma: diploma
        ? { id: diploma.id, serial: diploma.serial, has_pdf: diploma.pdfKey !== null, revoked: diploma.revokedAt !== null || batchRevokedAt !== null, downloads: diploma.downloads }
        : null,
    })),
  };
}
