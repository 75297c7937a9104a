import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { centres, educProvinces, examSessions, institutionOptions, institutions, nationalResults, options } from '../../db/schema.ts';
import { DEMO_CANDIDATES, seedCountryTemplate } from '../../seed/demo-batch.ts';
import { seedSchoolTemplate } from '../templates/templates-seed.ts';
import { upsertResults, type NationalResultRow } from './results-registry-service.ts';

/** Demo data of the issuing steps 1 and 2: the templates and the national results of session 2026. Idempotent. */
export async function seedImportDemo(db: Db): Promise<void> {
  const countryTemplateId = await seedCountryTemplate(db);
  await seedSchoolTemplate(db, countryTemplateId);
  await seedDemoResults(db);
}

export const DEMO_RESULTS_COUNT = 3000;

const LAST = [
  'Kabongo',
  'Mbuyi',
  'Ilunga',
  'Tshibangu',
  'Kalonji',
  'Mukendi',
  'Nsimba',
  'Lukusa',
  'Kasongo',
  'Mwamba',
  'Ngoy',
  'Banza',
  'Mulumba',
  'Kanku',
  'Nzuzi',
  'Makiese',
  'Tshala',
  'Mpoyi',
  'Mbala',
  'Lusamba',
  'Kapinga',
  'Ntumba',
  'Kabeya',
  'Mayala',
  'Luzolo',
  'Matondo',
  'Bokele',
  'Lokwa',
  'Bolamba',
  'Mokonzi',
  "N'Sele",
  'Kiese',
  'Bahati',
  'Mugisho',
  'Amani',
  'Kahindo',
  'Masika',
  'Ndaya',
  'Kalala',
  'Tshimanga',
];
const MIDDLE = [
  'wa Kalombo',
  'Kabamba',
  'Tshilombo',
  'Mbuyamba',
  'Ngalula',
  'Mutombo',
  'Kazadi',
  'Mbiya',
  'Nkulu',
  'Kilolo',
  'Lutete',
  'Diasivi',
  'Nkiambi',
  'Makengo',
  'Bolingo',
  'Likonde',
  'Mulamba',
  'Tshiunza',
  'Ebondo',
  'Kavira',
];
const FIRST_F = [
  'Élodie',
  'Marie-Claire',
  'Grâce',
  'Bénédicte',
  'Thérèse',
  'Rebecca',
  'Divine',
  'Esther',
  'Ruth',
  'Sarah',
  'Chance',
  'Merveille',
  'Joëlle',
  'Gloria',
  'Naomie',
  'Dorcas',
  'Rachel',
  'Anne-Marie',
  'Christelle',
  'Prisca',
];
const FIRST_M = [
  'Patrick',
  'Joseph',
  'Héritier',
  'Daniel',
  'Aimé',
  'Christian',
  'Jean-Baptiste',
  'Emmanuel',
  'Glody',
  'Trésor',
  'Fiston',
  'Junior',
  'Dieudonné',
  'Israël',
  'Merdi',
  'Exaucé',
  'Josué',
  'Jonathan',
  'Serge',
  'Blaise',
];

/** A small fast generator, seeded: the same synthetic session on every machine. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

/**
 * A synthetic national exam, session 2026: about 3,000 candidates spread over the demo schools
 * (Kinshasa weighs more), about 85 % passed; the demo batch's twelve candidates are among them,
 * with their codes (`2026` and a ten-digit index). Idempotent and quick (bulk insert).
 */
export async function seedDemoResults(db: Db): Promise<void> {
  const [session] = await db.select().from(examSessions).where(eq(examSessions.year, 2026));
  if (!session) return;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(nationalResults).where(eq(nationalResults.sessionId, session.id));
  if (n > 0) return;

  const schools = await db
    .select({ id: institutions.id, code: institutions.code, city: institutions.city, centreCode: centres.code, provinceCode: educProvinces.code })
    .from(institutions)
    .innerJoin(centres, eq(centres.id, institutions.centreId))
    .innerJoin(educProvinces, eq(educProvinces.id, institutions.educProvinceId))
    .orderBy(asc(institutions.id));
  if (!schools.length) return;
  const taught = await db
    .select({ institutionId: institutionOptions.institutionId, code: options.code })
    .from(institutionOptions)
    .innerJoin(options, eq(options.id, institutionOptions.optionId))
    .orderBy(asc(options.code));
  const optionsOf = new Map<number, string[]>();
  for (const t of taught) optionsOf.set(t.institutionId, [...(optionsOf.get(t.institutionId) ?? []), t.code]);

  // The demo batch's school and option, found the way seedDemoBatch finds them.
  const [funa] = await db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [demoSchool] = await db.select().from(institutions).where(eq(institutions.educProvinceId, funa!.id)).limit(1);
  const [demoOption] = await db
    .select({ code: options.code })
    .from(institutionOptions)
    .innerJoin(options, eq(options.id, institutionOptions.optionId))
    .where(eq(institutionOptions.institutionId, demoSchool!.id))
    .limit(1);
  const demo = schools.find((s) => s.id === demoSchool!.id)!;

  const rows: NationalResultRow[] = DEMO_CANDIDATES.map(([last, middle, first, gender, birthDate, birthPlace, tenths], index) => ({
    sessionId: session.id,
    candidateCode: `2026${String(index + 1).padStart(10, '0')}`,
    lastName: last,
    middleName: middle,
    firstName: first,
    birthDate,
    birthPlace,
    gender,
    institutionCode: demo.code,
    centreCode: demo.centreCode,
    optionCode: demoOption!.code,
    percentageTenths: tenths,
    passed: tenths >= 500,
  }));

  const random = generator(2026);
  // Kinshasa's schools present three times as many candidates.
  const weighted = schools.flatMap((s) => (s.provinceCode.startsWith('KIN') ? [s, s, s] : [s]));
  for (let index = rows.length + 1; index <= DEMO_RESULTS_COUNT; index++) {
    const school = random.pick(weighted);
    const gender = random.next() < 0.5 ? 'F' : 'M';
    const year = 2005 + Math.floor(random.next() * 4);
    const month = 1 + Math.floor(random.next() * 12);
    const day = 1 + Math.floor(random.next() * 28);
    // Roughly normal around 62 %, from 35 to 95.
    const percent = Math.min(95, Math.max(35, 62 + (random.next() + random.next() + random.next() - 1.5) * 22));
    const tenths = Math.round(percent * 10);
    rows.push({
      sessionId: session.id,
      candidateCode: `2026${String(index).padStart(10, '0')}`,
      lastName: random.pick(LAST),
      middleName: random.pick(MIDDLE),
      firstName: random.pick(gender === 'F' ? FIRST_F : FIRST_M),
      birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      birthPlace: random.next() < 0.8 ? school.city : random.pick(['Kinshasa', 'Lubumbashi', 'Mbuji-Mayi', 'Kananga', 'Kisangani', 'Bukavu', 'Goma', 'Matadi']),
      gender,
      institutionCode: school.code,
      centreCode: school.centreCode,
      optionCode: random.pick(optionsOf.get(school.id) ?? ['LIT']),
      percentageTenths: tenths,
      passed: tenths >= 500,
    });
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) await upsertResults(tx, rows.slice(i, i + 1000));
  });
}
