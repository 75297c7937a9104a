import { GENDERS, LOCALES, SIGNATURE_KINDS } from '@sceau/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The error PostgreSQL gives for `statement`, or null when it accepts it (inside a transaction rolled back either way). */
async function refusal(statement: ReturnType<typeof sql>): Promise<string | null> {
  const rollback = new Error('rollback');
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.execute(statement);
      throw rollback;
    });
  } catch (error) {
    if (error === rollback) return null;
    return (error as { cause?: { constraint?: string } }).cause?.constraint ?? String(error);
  }
  return null;
}

describe('locales, genders and signature kinds (migration 0011)', () => {
  it('holds the seeded data within the sets', async () => {
    const { rows } = await ctx.db.execute<{ locales: string[]; genders: string[] }>(
      sql`select array(select distinct locale from users) as locales, array(select distinct gender from national_results) as genders`,
    );
    expect(rows[0]!.locales.every((l) => (LOCALES as readonly string[]).includes(l))).toBe(true);
    expect([...rows[0]!.genders].sort()).toEqual([...GENDERS].sort());
  });

  it('are refused by PostgreSQL outside their closed sets, whatever writes them', async () => {
    expect(await refusal(sql`update users set locale = 'de' where id = (select min(id) from users)`)).toBe('users_locale_check');
    expect(await refusal(sql`insert into contact_messages (name, contact, subject, message, locale) values ('A', 'a@b.cd', 's', 'm', 'sw')`)).toBe('contact_messages_locale_check');
    expect(await refusal(sql`update national_results set gender = 'X' where id = (select min(id) from national_results)`)).toBe('national_results_gender_check');
    expect(
      await refusal(sql`insert into official_signatures (kind, signer_name, signer_title, image_key, image_sha256, width, height) values ('rector', 'N', 'T', 'k', 'h', 1, 1)`),
    ).toBe('official_signatures_kind_check');
  });

  it('let every value of the sets through, and a batch carry any subset of the signature kinds', async () => {
    for (const locale of LOCALES) expect(await refusal(sql`update users set locale = ${locale} where id = (select min(id) from users)`)).toBeNull();
    for (const kind of SIGNATURE_KINDS) {
      expect(
        await refusal(
          sql`insert into official_signatures (kind, signer_name, signer_title, image_key, image_sha256, width, height) values (${kind}, 'N', 'T', 'k', 'h', 1, 1) on conflict do nothing`,
        ),
      ).toBeNull();
    }
    const batch = (kinds: ReturnType<typeof sql>) => sql`insert into generations (type, template_id, session_id, educ_province_id, signature_kinds)
      select 'diplome_etat', (select min(id) from templates), (select min(id) from exam_sessions), (select min(id) from educ_provinces), ${kinds}`;
    expect(await refusal(batch(sql`array['ministry', 'jury']`))).toBeNull();
    expect(await refusal(batch(sql`null`))).toBeNull();
    expect(await refusal(batch(sql`array['ministry', 'rector']`))).toBe('generations_signature_kinds_check');
  });
});
