import type { Metrics } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The public counters, in one query over published batches. */
export async function countPublished(db: Db): Promise<Metrics> {
  const { rows } = await db.execute<{ documents: string; students: string; schools: string; downloads: string }>(sql`
    select count(*) filter (where d.revoked_at is null and g.revoked_at is null) as documents,
           count(distinct d.candidate_code) filter (where d.revoked_at is null and g.revoked_at is null) as students,
           count(distinct i.institution_id) filter (where d.revoked_at is null and g.revoked_at is null) as schools,
           coalesce(sum(d.downloads), 0) as downloads
    from diplomas d
    join generations g on g.id = d.generation_id and g.status = 'completed'
    join generation_items i on i.id = d.item_id`);
  const r = rows[0]!;
  return { documents: Number(r.documents), students: Number(r.students), schools: Number(r.schools), downloads: Number(r.downloads) };
}
