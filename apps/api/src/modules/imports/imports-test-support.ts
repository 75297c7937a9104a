/** What the import tests share: an app whose services they can reach, lists, zips and photos made on the fly. */
import { flattenGrants } from '@sceau/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import yazl from 'yazl';
import { createTestApp, signIn, type TestContext } from '../../../test/helpers.ts';
import { pino } from 'pino';
import { buildApp, type App } from '../../app.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { centres, countries, educProvinces, examSessions, institutions, roles, templates, userRoles, users } from '../../db/schema.ts';
import { createServices, type Services } from '../../services.ts';
import type { Actor } from '../../policies/actor.ts';
import { loadRolesOf } from '../../policies/grants.ts';
import { loadScopes, NATIONAL } from '../../policies/scope.ts';
import { hashPassword } from '../accounts/auth-service.ts';

export const HEADERS = [
  'code_candidat',
  'nom',
  'postnom',
  'prenom',
  'date_naissance',
  'lieu_naissance',
  'sexe',
  'option',
  'ecole',
  'centre',
  'pourcentage',
  'photo',
  'telephone',
  'email',
];

export interface ImportTest {
  ctx: TestContext;
  app: App;
  services: Services;
  sessionId: number;
  provinceId: number;
  templateId: number;
  /** KIN-FUN-C1-E1 (centre KIN-FUN-C1, options LIT, SA, ELE, CON) and KIN-FUN-C1-E2 (MP, PG, ELN, INF, CCO). */
  schools: { e1: number; e2: number };
  close(): Promise<void>;
}

export async function createImportTest(): Promise<ImportTest> {
  const ctx = await createTestApp();
  // The platform's queue, with the import job; not started: a test that works jobs starts it.
  const queue = new JobQueue(ctx.databaseUrl, pino({ level: 'silent' }));
  const services = createServices(ctx.db, ctx.config, { queue });
  queue.define(services.imports.job);
  const app = await buildApp({ db: ctx.db, config: ctx.config, services });
  await app.ready();
  const [session] = await ctx.db.select().from(examSessions).where(eq(examSessions.year, 2026));
  const [province] = await ctx.db.select().from(educProvinces).where(eq(educProvinces.code, 'KIN-FUN'));
  const [congo] = await ctx.db.select().from(countries).where(eq(countries.code, 'CD'));
  const [template] = await ctx.db.select().from(templates).where(eq(templates.ownerId, congo!.id));
  const [e1] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E1'));
  const [e2] = await ctx.db.select().from(institutions).where(eq(institutions.code, 'KIN-FUN-C1-E2'));
  return {
    ctx,
    app,
    services,
    sessionId: session!.id,
    provinceId: province!.id,
    templateId: template!.id,
    schools: { e1: e1!.id, e2: e2!.id },
    async close() {
      await queue.stop();
      await app.close();
      await ctx.close();
    },
  };
}

/** A staff account bound to a school, with the admin role; answers its authorization header. */
export async function schoolUser(t: ImportTest, email: string, institutionId: number): Promise<Record<string, string>> {
  const [school] = await t.ctx.db.select().from(institutions).where(eq(institutions.id, institutionId));
  const [centre] = await t.ctx.db.select().from(centres).where(eq(centres.id, school!.centreId));
  const [user] = await t.ctx.db
    .insert(users)
    .values({
      name: 'Ecole',
      firstName: 'Agent',
      email,
      passwordHash: await hashPassword('Sceau-Demo-2026'),
      verifiedAt: new Date(),
      institutionId,
      centreId: centre!.id,
      educProvinceId: school!.educProvinceId,
    })
    .returning();
  const [admin] = await t.ctx.db.select().from(roles).where(eq(roles.name, 'admin'));
  await t.ctx.db.insert(userRoles).values({ userId: user!.id, roleId: admin!.id });
  return { authorization: `Bearer ${await signIn(t.ctx, email)}` };
}

/** The Actor of an account, as the access plugin reads it for a request: for a test that calls a service itself. */
export async function actorOf(db: TestContext['db'], email: string): Promise<Actor> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const [roleList, scopes] = await Promise.all([loadRolesOf(db, [user!.id]), loadScopes(db, [user!.id])]);
  return { id: user!.id, ...flattenGrants(roleList.get(user!.id) ?? []), scope: scopes.get(user!.id) ?? NATIONAL, ip: null, userAgent: null, locale: 'fr' };
}

export async function bearer(t: ImportTest, email: string): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await signIn(t.ctx, email)}` };
}

export interface UploadFile {
  name: string;
  filename: string;
  type: string;
  data: Buffer;
}

export function multipart(fields: Record<string, string | number>, files: UploadFile[] = []) {
  const boundary = '----sceau-import-boundary';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(file.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A CSV as Excel on a French Windows writes it: `;`, a byte-order mark, CRLF. */
export function csv(rows: (string | number)[][], headers = HEADERS): Buffer {
  const text = [headers, ...rows].map((r) => r.map((v) => (/[;"\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v))).join(';')).join('\r\n');
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${text}\r\n`, 'utf8')]);
}

export const csvFile = (data: Buffer, filename = 'liste.csv'): UploadFile => ({ name: 'file', filename, type: 'text/csv', data });

/** A candidate row of school E1 (centre KIN-FUN-C1), with `changes` by column. */
export function row(code: string, changes: Partial<Record<(typeof HEADERS)[number], string>> = {}): string[] {
  const base: Record<string, string> = {
    code_candidat: code,
    nom: 'Kabongo',
    postnom: 'wa Ilunga',
    prenom: 'Marie-Claire',
    date_naissance: '14/03/2007',
    lieu_naissance: 'Kinshasa',
    sexe: 'F',
    option: 'LIT',
    ecole: 'KIN-FUN-C1-E1',
    centre: 'KIN-FUN-C1',
    pourcentage: '72,5',
    photo: '',
    telephone: '',
    email: '',
    ...changes,
  };
  return HEADERS.map((h) => base[h]!);
}

export async function xlsx(rows: unknown[][], headers = HEADERS): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Liste');
  sheet.addRow(headers);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function zip(files: Record<string, Buffer>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) archive.addBuffer(data, name);
  archive.end();
  const chunks: Buffer[] = [];
  for await (const chunk of archive.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A phone-camera-sized portrait (large, landscape), to be normalised by the import. */
export async function portrait(hue: number, width = 1200, height = 1600): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${hue},40%,80%)"/><circle cx="${width / 2}" cy="${height / 2.6}" r="${width / 4}" fill="hsl(${hue},30%,30%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer();
}
