import { and, count, desc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, examSessions, generationItems, generations, institutions, options, shareLinks, users } from '../../db/schema.ts';
import type { HolderAccount, HolderDiplomaFacts } from '../../policies/holder-policy.ts';

/** What the holder's side reads of the diplomas and accounts (the issuing and accounts tables, read only). */

const diplomaColumns = {
  id: diplomas.id,
  issuedAt: diplomas.issuedAt,
  revokedAt: diplomas.revokedAt,
  revocationReason: diplomas.revocationReason,
  pdfKey: diplomas.pdfKey,
  candidateCode: generationItems.candidateCode,
  lastName: generationItems.lastName,
  middleName: generationItems.middleName,
  firstName: generationItems.firstName,
  percentageTenths: generationItems.percentageTenths,
  email: generationItems.email,
  phone: generationItems.phone,
  kind: generations.type,
  batchStatus: generations.status,
  batchRevokedAt: generations.revokedAt,
  batchRevocationReason: generations.revocationReason,
  session: examSessions.name,
  option: options.name,
  school: institutions.name,
};

export type HolderDiplomaRow = Awaited<ReturnType<typeof selectDiplomas>>[number];

function selectDiplomas(db: Db, where: SQL | undefined) {
  return db
    .select(diplomaColumns)
    .from(diplomas)
    .innerJoin(generationItems, eq(generationItems.id, diplomas.itemId))
    .innerJoin(generations, eq(generations.id, diplomas.generationId))
    .innerJoin(examSessions, eq(examSessions.id, generations.sessionId))
    .innerJoin(options, eq(options.id, generationItems.optionId))
    .innerJoin(institutions, eq(institutions.id, generationItems.institutionId))
    .where(where)
    .orderBy(desc(diplomas.issuedAt), diplomas.id);
}

/** The facts the holder policy reads of a diploma row. */
export function factsOf(row: HolderDiplomaRow): HolderDiplomaFacts {
  return {
    candidate: { email: row.email, phone: row.phone },
    batch: { status: row.batchStatus, revokedAt: row.batchRevokedAt },
    revokedAt: row.revokedAt,
  };
}

export async function findHolderAccount(db: Db, userId: number): Promise<HolderAccount | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, phone: users.phone, verifiedAt: users.verifiedAt, archivedAt: users.archivedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return null;
  return { id: row.id, email: row.email, phone: row.phone, verified: row.verifiedAt !== null, archived: row.archivedAt !== null };
}

/**
 * The diplomas whose candidate has one of these contacts (the policy decides which the account
 * may see; this only narrows the read to the candidates of those contacts, by their indexes).
 */
export function findDiplomasByContacts(db: Db, contacts: { email: string | null; phone: string | null }): Promise<HolderDiplomaRow[]> {
  const conditions: SQL[] = [];
  if (contacts.email) conditions.push(eq(generationItems.email, contacts.email));
  if (contacts.phone) conditions.push(eq(generationItems.phone, contacts.phone));
  if (conditions.length === 0) return Promise.resolve([]);
  return selectDiplomas(db, or(...conditions));
}

export async function findDiploma(db: Db, id: string): Promise<HolderDiplomaRow | null> {
  const [row] = await selectDiplomas(db, eq(diplomas.id, id));
  return row ?? null;
}

/** A diploma's full credential as it was issued (every field and salt), or null if there is none. */
export async function findCredential(db: Db, id: string): Promise<unknown | null> {
  const [row] = await db.select({ credential: diplomas.credential }).from(diplomas).where(eq(diplomas.id, id));
  return row?.credential ?? null;
}

export type ShareRow = typeof shareLinks.$inferSelect;

export function listShares(db: Db, userId: number): Promise<ShareRow[]> {
  return db.select().from(shareLinks).where(eq(shareLinks.userId, userId)).orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

export async function findShare(db: Db, where: { id: number } | { tokenHash: string }): Promise<ShareRow | null> {
  const [row] = await db
    .select()
    .from(shareLinks)
    .where('id' in where ? eq(shareLinks.id, where.id) : eq(shareLinks.tokenHash, where.tokenHash));
  return row ?? null;
}

/** The links of this maker and diploma that still open (not revoked, not expired). */
export async function countActiveShares(db: Pick<Db, 'select'>, userId: number, diplomaId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(shareLinks)
    .where(
      and(eq(shareLinks.userId, userId), eq(shareLinks.diplomaId, diplomaId), isNull(shareLinks.revokedAt), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, sql`now()`))),
    );
  return row?.n ?? 0;
}
