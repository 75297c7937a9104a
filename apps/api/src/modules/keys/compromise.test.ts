import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers.ts';
import { createDb, type Db } from '../../db/client.ts';
import { diplomasSignedSince } from './compromise.ts';

let db: Db;
let drop: () => Promise<void>;

/** A batch anchored at `anchoredAt` with one diploma per [id, kid, issuedAt]. */
async function batch(anchoredAt: string | null, diplomas: [string, string, string, boolean?][]) {
  const [g] = (
    await db.execute(sql`
    insert into generations (type, template_id, session_id, educ_province_id, anchored_at)
    values ('diplome_etat', (select id from templates limit 1), (select id from exam_sessions limit 1), (select id from educ_provinces limit 1), ${anchoredAt})
    returning id`)
  ).rows as { id: number }[];
  for (const [id, kid, issuedAt, revoked] of diplomas) {
    const [item] = (
      await db.execute(sql`
      insert into generation_items (generation_id, candidate_code, last_name, birth_date, birth_place, gender, option_id, institution_id, centre_id, percentage_tenths)
      values (${g!.id}, ${id.slice(0, 14)}, 'Test', '2008-01-01', 'Kinshasa', 'F', (select id from options limit 1), (select id from institutions limit 1), (select id from centres limit 1), 700)
      returning id`)
    ).rows as { id: number }[];
    await db.execute(sql`
      insert into diplomas (id, item_id, generation_id, candidate_code, credential, target_hash, qr_payload, signing_key_id, issued_at, revoked_at)
      values (${id.padEnd(22, 'x')}, ${item!.id}, ${g!.id}, ${id.slice(0, 14)}, '{}'::jsonb, ${id.padEnd(64, '0')}, 'qr', ${kid}, ${issuedAt}, ${revoked ? issuedAt : null})`);
  }
  return g!.id;
}

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, 2);
});
afterAll(async () => {
  await db?.$client.end();
  await drop?.();
});

describe('diplomas signed after a compromise time', () => {
  it('lists the diplomas of the key signed, or whose batch was anchored, at or after the time; none of other keys', async () => {
    const since = new Date('2026-11-20T08:00:00Z');
    const before = await batch('2026-11-19T10:00:00Z', [['before', 'KEYA', '2026-11-19T09:00:00Z']]);
    // Signed before the time, but its batch reached the chain after: a QR check dates it by anchoring.
    const anchoredLate = await batch('2026-11-20T09:00:00Z', [['signedbefore', 'KEYA', '2026-11-20T07:59:00Z']]);
    const after = await batch(null, [
      ['after1', 'KEYA', '2026-11-20T08:00:00Z'],
      ['after2', 'KEYA', '2026-11-21T08:00:00Z', true],
      ['otherkey', 'KEYB', '2026-11-21T08:00:00Z'],
    ]);
    const affected = await diplomasSignedSince(db, 'KEYA', since);
    expect(affected.map((d) => [d.generationId, d.id.replace(/x+$/, ''), d.revoked])).toEqual([
      [anchoredLate, 'signedbefore', false],
      [after, 'after1', false],
      [after, 'after2', true],
    ]);
    expect(affected.find((d) => d.generationId === before)).toBeUndefined();
    expect(affected[0]).toMatchObject({ anchoredAt: '2026-11-20T09:00:00.000Z', issuedAt: '2026-11-20T07:59:00.000Z' });
    expect(affected[1]!.anchoredAt).toBeNull();
    expect(await diplomasSignedSince(db, 'KEYC', since)).toEqual([]);
  });
});
