/**
 * A batch of two candidates written straight into a test's database, for tests about what is done
 * with a batch (its history, its specimen) rather than how one is imported.
 */
import type { GenerationStatus } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { educProvinces, examSessions, generationItems, generations, institutionOptions, institutions, roles, userRoles, users } from '../src/db/schema.ts';
import { hashPassword } from '../src/modules/accounts/auth-service.ts';
import { seedCountryTemplate } from '../src/seed/demo-batch.ts';
import { DEMO_PASSWORD } from './helpers.ts';

export interface TwoCandidateBatch {
  batchId: number;
  /** The candidates' ids: Matondo Espérance (F), then Luzolo Joël (M). */
  itemIds: number[];
  /** The batch's province (KC-1), where its staff work. */
  province: typeof educProvinces.$inferSelect;
  /** A school of another province (KIN-FUN-C1-E1): outside the batch's scope. */
  other: typeof institutions.$inferSelect;
}

/**
 * A batch of the current session in the first school of KC-1 (the country's template), in `status`,
 * with two candidates coded `codeBase + batchId * 10 + i`. `candidate` adds to each candidate's row
 * (a middle name, a photo written for the batch, validations).
 */
export async function insertTwoCandidateBatch(
  db: Db,
  options: {
    status: GenerationStatus;
    codeBase: number;
    candidate?: (batchId: number, index: number) => Promise<Partial<typeof generationItems.$inferInsert>>;
  },
): Promise<TwoCandidateBatch> {
  const templateId = await seedCountryTemplate(db);
  const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
  const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KC-1'));
  const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
  const [other] = await db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'));
  const [option] = await db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
  const [batch] = await db
    .insert(generations)
    .values({ type: 'diplome_etat', templateId, sessionId: session!.id, educProvinceId: province!.id, institutionId: school!.id, status: options.status, createdBy: null })
    .returning();
  const batchId = batch!.id;
  const itemIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const [item] = await db
      .insert(generationItems)
      .values({
        generationId: batchId,
        candidateCode: `${options.codeBase + batchId * 10 + i}`,
        lastName: ['Matondo', 'Luzolo'][i]!,
        firstName: ['Espérance', 'Joël'][i]!,
        birthDate: '2007-02-01',
        birthPlace: 'Matadi',
        gender: i === 0 ? 'F' : 'M',
        optionId: option!.optionId,
        institutionId: school!.id,
        centreId: school!.centreId,
        percentageTenths: 684,
        ...(await options.candidate?.(batchId, i)),
      })
      .returning({ id: generationItems.id });
    itemIds.push(item!.id);
  }
  return { batchId, itemIds, province: province!, other: other! };
}

/** A verified staff account working in an educational province, with `role` (none: no role at all). */
export async function insertStaff(db: Db, account: { email: string; role: string | null; educProvinceId: number; name: string; firstName: string }): Promise<void> {
  const [user] = await db
    .insert(users)
    .values({
      name: account.name,
      firstName: account.firstName,
      email: account.email,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      verifiedAt: new Date(),
      educProvinceId: account.educProvinceId,
    })
    .returning();
  if (!account.role) return;
  const [r] = await db.select().from(roles).where(eq(roles.name, account.role));
  await db.insert(userRoles).values({ userId: user!.id, roleId: r!.id });
}
