import { diplomeEtatTemplate } from '@sceau/pdf';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import {
  countries,
  diplomas,
  educProvinces,
  examSessions,
  generationItems,
  generations,
  institutionOptions,
  institutions,
  officialSignatures,
  templates,
  users,
} from '../db/schema.ts';
import type { FileStorage } from '../lib/storage.ts';
import { moveGeneration, moveSignature } from '../modules/generations/generation-status.ts';
import type { IssuingService } from '../modules/generations/issuing-service.ts';
import { processSignatureImage } from '../modules/signatures/signature-image.ts';

/** The country's Diplôme d'État design: every installation needs it (idempotent). */
export async function seedCountryTemplate(db: Db): Promise<number> {
  const [congo] = await db.select().from(countries).where(eq(countries.code, 'CD'));
  const [existing] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.ownerType, 'country'), eq(templates.ownerId, congo!.id), eq(templates.generationType, 'diplome_etat')));
  if (existing) return existing.id;
  const [created] = await db
    .insert(templates)
    .values({ name: "Diplôme d'État", ownerType: 'country', ownerId: congo!.id, generationType: 'diplome_etat', design: diplomeEtatTemplate as unknown as Record<string, unknown> })
    .returning({ id: templates.id });
  return created!.id;
}

/** A pen stroke on white paper, as a scanner would give it (made-up signatures of made-up signers). */
async function scannedSignature(path: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="100%" height="100%" fill="#fdfdfb"/><path d="${path}" stroke="#14245a" stroke-width="6" stroke-linecap="round" stroke-linejoin="round" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const DEMO_SIGNERS = [
  {
    kind: 'ministry',
    name: 'Béatrice Mwamba Kasongo',
    title: "La Ministre de l'Éducation nationale",
    path: 'M30 140 C 90 20, 140 190, 200 90 S 300 40, 330 120 S 430 160, 480 60 L 560 70',
  },
  { kind: 'inspector_general', name: 'Jean-Claude Ilunga Mbuyi', title: "L'Inspecteur général", path: 'M40 120 Q 120 30 170 130 T 300 110 Q 360 60 400 140 T 560 90' },
  { kind: 'jury', name: 'Thérèse Nsimba Luzolo', title: 'La Présidente du Jury', path: 'M50 150 C 100 40, 180 40, 210 150 C 240 60, 320 60, 350 140 S 480 60, 550 110' },
] as const;

/** Official signatures for the demo, when none were uploaded yet. */
export async function seedDemoSignatures(db: Db, storage: FileStorage): Promise<void> {
  const existing = await db.select({ kind: officialSignatures.kind }).from(officialSignatures);
  for (const signer of DEMO_SIGNERS) {
    if (existing.some((e) => e.kind === signer.kind)) continue;
    const { png, width, height } = await processSignatureImage(await scannedSignature(signer.path));
    const sha = (await import('node:crypto')).createHash('sha256').update(png).digest('hex');
    const key = `signatures/${signer.kind}-${sha.slice(0, 16)}.png`;
    await storage.put(key, png);
    await db
      .insert(officialSignatures)
      .values({ kind: signer.kind, signerName: signer.name, signerTitle: signer.title, imageKey: key, imageSha256: sha, width, height })
      .onConflictDoNothing();
  }
}

/** A passport-style portrait placeholder: a plain silhouette on a coloured background, ~5 KB. */
export async function demoPhoto(hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="hsl(${hue},35%,82%)"/><circle cx="150" cy="150" r="72" fill="hsl(${hue},25%,35%)"/><path d="M30 400 C 40 270, 260 270, 270 400 Z" fill="hsl(${hue},25%,35%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer();
}

export const DEMO_CANDIDATES = [
  ['Ngalula', 'Kabamba', 'Élodie', 'F', '2007-03-14', 'Kinshasa', 725],
  ['Mukendi', 'Tshibangu', 'Patrick', 'M', '2006-11-02', 'Mbuji-Mayi', 681],
  ['Mbuyamba', 'Tshilombo', 'Marie-Élodie', 'F', '2007-07-21', 'Kananga', 804],
  ['Ilunga', 'wa Kalombo', 'Joseph', 'M', '2006-05-30', 'Lubumbashi', 592],
  ['Nsimba', 'Luzolo', 'Grâce', 'F', '2007-01-09', 'Matadi', 658],
  ['Kasongo', 'Banza', 'Héritier', 'M', '2006-09-17', 'Kindu', 713],
  ['Mwamba', 'Ngoy', 'Bénédicte', 'F', '2007-12-03', 'Kolwezi', 766],
  ['Lukusa', 'Kanku', 'Daniel', 'M', '2006-08-26', 'Tshikapa', 630],
  ['Nzuzi', 'Makiese', 'Thérèse', 'F', '2007-04-11', 'Kikwit', 699],
  ['Kabila', 'Mulumba', 'Aimé', 'M', '2006-02-19', 'Kisangani', 745],
  ['Tshala', 'Mpoyi', 'Rebecca', 'F', '2007-06-05', 'Kinshasa', 578],
  ['Mbala', 'Nkiambi', 'Christian', 'M', '2006-10-28', 'Boma', 820],
] as const;

export const DEMO_BATCH_TITLE = 'Lot de démonstration — Session 2026';

/**
 * A small signed and anchored batch, issued through the same steps as any other (validated
 * candidates → generation → signature → anchoring), so that verification works right after the
 * first start. Idempotent: done once.
 */
export async function seedDemoBatch(db: Db, storage: FileStorage, issuing: IssuingService): Promise<number> {
  const [existing] = await db.select().from(generations).where(eq(generations.title, DEMO_BATCH_TITLE));
  if (existing?.status === 'completed') return existing.id;
  let id = existing?.id;
  if (!id) {
    const templateId = await seedCountryTemplate(db);
    await seedDemoSignatures(db, storage);
    const [session] = await db.select().from(examSessions).where(eq(examSessions.isCurrent, true));
    const [province] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
    const [school] = await db.select().from(institutions).where(eq(institutions.educProvinceId, province!.id)).limit(1);
    const [option] = await db.select().from(institutionOptions).where(eq(institutionOptions.institutionId, school!.id)).limit(1);
    const [root] = await db.select().from(users).where(eq(users.email, 'root@sceau.example'));
    id = await db.transaction(async (tx) => {
      const [batch] = await tx
        .insert(generations)
        .values({
          type: 'diplome_etat',
          templateId,
          title: DEMO_BATCH_TITLE,
          sessionId: session!.id,
          educProvinceId: province!.id,
          institutionId: school!.id,
          centreId: school!.centreId,
          optionId: option!.optionId,
          createdBy: root?.id ?? null,
        })
        .returning({ id: generations.id });
      for (const [index, [last, middle, first, gender, birthDate, birthPlace, tenths]] of DEMO_CANDIDATES.entries()) {
        const photoKey = `photos/demo/${batch!.id}-${index + 1}.jpg`;
        await storage.put(photoKey, await demoPhoto((index * 37) % 360));
        await tx.insert(generationItems).values({
          generationId: batch!.id,
          candidateCode: `2026${String(index + 1).padStart(10, '0')}`,
          lastName: last,
          middleName: middle,
          firstName: first,
          birthDate,
          birthPlace,
          gender,
          optionId: option!.optionId,
          institutionId: school!.id,
          centreId: school!.centreId,
          percentageTenths: tenths,
          photoKey,
          photoStatus: 'validated',
          dataStatus: 'validated',
          sourceRow: index + 2,
        });
      }
      await moveGeneration(tx, batch!.id, 'pending_validation', { actorId: root?.id ?? null, reason: 'demo seed' });
      await moveGeneration(tx, batch!.id, 'ready_for_generation', { actorId: root?.id ?? null });
      await moveGeneration(tx, batch!.id, 'in_progress', { actorId: root?.id ?? null });
      return batch!.id;
    });
  }
  // The same handlers the jobs run.
  await issuing.generate(id);
  const [generated] = await db.select().from(generations).where(eq(generations.id, id));
  if (generated!.signatureStatus === 'not_started') await db.transaction((tx) => moveSignature(tx, id, 'in_progress'));
  await issuing.anchor(id);
  return id;
}

/** A diploma of the demo batch, for the link printed at start (null before the batch is issued). */
export async function demoDiplomaId(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ id: diplomas.id })
    .from(diplomas)
    .innerJoin(generations, eq(generations.id, diplomas.generationId))
    .where(eq(generations.title, DEMO_BATCH_TITLE))
    .orderBy(diplomas.itemId)
    .limit(1);
  return row?.id ?? null;
}
