import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type GenerationStatus, isPublished, PUBLISHED_STATUS } from '@sceau/contracts';
import { diplomas, examSessions, generationItems, generations, institutions, nationalResults, options, templates } from '../../db/schema.ts';
import type { FileStorage } from '../../lib/storage.ts';

/** Bytes that stand for a signed PDF (the public routes serve stored bytes as they are). */
export const FAKE_PDF = Buffer.from('%PDF-1.7\n% a diploma for the tests\n%%EOF\n');
export const FAKE_PHOTO = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

export interface DiplomaFixture {
  id: string;
  generationId: number;
  itemId: number;
}

/**
 * A diploma of one candidate of the national results registry, in a batch of its own, written
 * straight into the tables (tests of the public routes; issuing has its own tests): published
 * (PUBLISHED_STATUS) unless told otherwise, with a stored PDF and photo.
 */
export async function insertDiplomaFixture(
  db: Db,
  storage: FileStorage,
  code: string,
  options_: { status?: GenerationStatus; revoked?: boolean; batchRevoked?: boolean; pdf?: boolean; photo?: boolean } = {},
): Promise<DiplomaFixture> {
  const { status = PUBLISHED_STATUS, revoked = false, batchRevoked = false, pdf = true, photo = true } = options_;
  const [r] = await db.select().from(nationalResults).innerJoin(examSessions, eq(examSessions.id, nationalResults.sessionId)).where(eq(nationalResults.candidateCode, code));
  if (!r) throw new Error(`no candidate ${code} in the registry`);
  const result = r.national_results;
  const [school] = await db.select().from(institutions).where(eq(institutions.code, result.institutionCode));
  const [option] = await db.select().from(options).where(eq(options.code, result.optionCode));
  const [template] = await db.select({ id: templates.id }).from(templates).limit(1);
  const id = randomBytes(16).toString('base64url');
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(generations)
      .values({
        type: 'diplome_etat',
        templateId: template!.id,
        sessionId: result.sessionId,
        educProvinceId: school!.educProvinceId,
        institutionId: school!.id,
        centreId: school!.centreId,
        optionId: option!.id,
        status,
        signatureStatus: isPublished(status) ? 'finished' : 'not_started',
        revokedAt: batchRevoked ? new Date() : null,
      })
      .returning({ id: generations.id });
    const photoKey = photo ? `photos/test/${id}.jpg` : null;
    if (photoKey) await storage.put(photoKey, FAKE_PHOTO);
    const [item] = await tx
      .insert(generationItems)
      .values({
        generationId: batch!.id,
        candidateCode: code,
        lastName: result.lastName,
        middleName: result.middleName,
        firstName: result.firstName,
        birthDate: result.birthDate,
        birthPlace: result.birthPlace,
        gender: result.gender,
        optionId: option!.id,
        institutionId: school!.id,
        centreId: school!.centreId,
        percentageTenths: result.percentageTenths,
        photoKey,
        photoStatus: 'validated',
        dataStatus: 'validated',
      })
      .returning({ id: generationItems.id });
    const pdfKey = pdf ? `diplomas/test/${id}.pdf` : null;
    if (pdfKey) await storage.put(pdfKey, FAKE_PDF);
    await tx.insert(diplomas).values({
      id,
      itemId: item!.id,
      generationId: batch!.id,
      candidateCode: code,
      credential: { id },
      targetHash: randomBytes(32).toString('hex'),
      qrPayload: 'SC1:TEST',
      pdfKey,
      signingKeyId: 'test',
      revokedAt: revoked ? new Date() : null,
    });
    return { id, generationId: batch!.id, itemId: item!.id };
  });
}
