import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { diplomas, generationItems, nationalResults, users } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { signIn, type TestContext } from '../../../test/helpers.ts';
import { hashPassword } from '../accounts/auth-service.ts';
import { insertDiplomaFixture, type DiplomaFixture } from '../candidate-check/public-diploma-fixtures.ts';

/**
 * Tests of the portable forms and the holder's side (VC, SD-JWT VC, OpenID4VCI, their upload): a
 * published diploma as its credential was issued, and a holder account that holds it by its phone.
 * The fixtures of public-diploma-fixtures.ts store only a stand-in credential; these give it the
 * record a diploma is issued with.
 */

export const HOLDER_PASSWORD = 'Titulaire-2026';

/**
 * The record a diploma was issued with. `n` varies the serial and candidate code when several
 * diplomas of one test must differ; without it, every diploma has the same ones.
 */
export function issuedRecord(id: string, n?: number) {
  return {
    diploma_id: id,
    serial: n === undefined ? 'DE-2026-0000001-2' : `DE-2026-000000${n}-2`,
    candidate_code: n === undefined ? '12345678901234' : `1234567890123${n}`,
    last_name: 'MUKENDI',
    middle_name: 'KABONGO',
    first_name: 'Grâce',
    birth_date: '2008-03-14',
    birth_place: 'Kananga',
    gender: 'F' as const,
    option: 'Scientifique',
    option_code: 'SC',
    school: 'Lycée Lumière',
    school_code: 'LL01',
    centre: 'Institut St Joseph',
    centre_code: 'C12',
    educ_province: 'Kasaï-Central 1',
    educ_province_code: 'KC1',
    session: 'Juin 2026',
    session_year: 2026,
    percentage: 71.5,
    issue_date: '2026-07-20',
    issuer: 'minepst.gouv.cd',
  };
}

/**
 * Published diplomas of the registry's first candidates, one per entry of `kinds` (`revoked`: the
 * diploma revoked), each with its issued record (`numbered`: `issuedRecord(id, index)`).
 */
export async function issuedDiplomas<const K extends readonly ('valid' | 'revoked')[]>(
  db: Db,
  storage: FileStorage,
  kinds: K,
  options: { numbered?: boolean } = {},
): Promise<{ [I in keyof K]: DiplomaFixture }> {
  const codes = (await db.select({ code: nationalResults.candidateCode }).from(nationalResults).orderBy(nationalResults.candidateCode).limit(kinds.length)).map((r) => r.code);
  const made: DiplomaFixture[] = [];
  for (const [n, kind] of kinds.entries()) {
    const diploma = await insertDiplomaFixture(db, storage, codes[n]!, { revoked: kind === 'revoked' });
    await db
      .update(diplomas)
      // A changed credential loses its seal (ADR 0154).
      .set({ credential: { record: issuedRecord(diploma.id, options.numbered ? n : undefined) }, seal: null, publicCredential: null })
      .where(eq(diplomas.id, diploma.id));
    made.push(diploma);
  }
  return made as { [I in keyof K]: DiplomaFixture };
}

/** Gives these diplomas' candidate this contact, as the school's list would. */
export async function heldBy(db: Db, held: readonly Pick<DiplomaFixture, 'itemId'>[], contact: { phone?: string; email?: string }): Promise<void> {
  for (const diploma of held) await db.update(generationItems).set(contact).where(eq(generationItems.id, diploma.itemId));
}

/** A confirmed account with this contact, signed in: its access token. */
export async function holderAccount(ctx: TestContext, name: string, contact: { phone?: string; email?: string }): Promise<string> {
  await ctx.db.insert(users).values({ name, ...contact, passwordHash: await hashPassword(HOLDER_PASSWORD), verifiedAt: new Date() });
  return signIn(ctx, contact.email ?? contact.phone!, HOLDER_PASSWORD);
}
