import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * A diploma the platform signed with a key after the time that key is declared compromised from
 * (ADR 0136): verifiers refuse it from now on (the key's retirement time is set back), so it is to
 * be issued again with the new key. `anchoredAt` is when its batch's root reached the chain (what
 * decides for a QR-only check); null if not anchored yet.
 */
export interface AffectedDiploma {
  id: string;
  generationId: number;
  candidateCode: string;
  issuedAt: string;
  anchoredAt: string | null;
  revoked: boolean;
}

/**
 * The diplomas signed with `kid` whose signature or batch anchoring is at or after `since`: each is
 * refused once the key's retirement time is `since`. Ordered by batch, then candidate.
 */
export async function diplomasSignedSince(db: Db, kid: string, since: Date): Promise<AffectedDiploma[]> {
  const result = await db.execute(sql`
    select d.id, d.generation_id, d.candidate_code, d.issued_at, g.anchored_at, d.revoked_at is not null as revoked
    from diplomas d join generations g on g.id = d.generation_id
    where d.signing_key_id = ${kid} and (d.issued_at >= ${since.toISOString()} or g.anchored_at >= ${since.toISOString()})
    order by d.generation_id, d.candidate_code`);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    id: String(r.id),
    generationId: Number(r.generation_id),
    candidateCode: String(r.candidate_code),
    issuedAt: new Date(r.issued_at as string | Date).toISOString(),
    anchoredAt: r.anchored_at ? new Date(r.anchored_at as string | Date).toISOString() : null,
    revoked: Boolean(r.revoked),
  }));
}
