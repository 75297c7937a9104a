import { randomUUID } from 'node:crypto';
import { IMPORT_COLUMNS } from '@sceau/contracts';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { consumeAll, pgRateLimiter } from '../../lib/rate-limits.ts';
import { and, asc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { centres, examSessions, institutions, nationalResults, options } from '../../db/schema.ts';
import { defineJob } from '../../jobs/job-queue.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { FileStorage } from '../../lib/storage.ts';
import { recordAudit } from '../audit/audit-service.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize } from '../../policies/policy.ts';
import { resultsPolicy } from '../../policies/results-policy.ts';
import type { Scope } from '../../policies/scope.ts';
import { HEADER_HINTS, missingColumnsParams, type RowProblem } from './import-checker.ts';
import type { ImportsService } from './imports-service.ts';
import { cleanText, comparable, readBirthDate, readCandidateCode, readGender, readName, readPercentage } from './row-values.ts';
import { normaliseHeader, readTable } from './table-reader.ts';
import { escapeLike } from '../../lib/sql-search.ts';

type ResultColumn = (typeof IMPORT_COLUMNS)[number]['key'] | 'admis';

/** The export's columns: the student list's, plus whether the candidate passed (`admis`; else: 50 % or more). */
const RESULT_HEADERS = new Map<string, ResultColumn>([
  ...IMPORT_COLUMNS.flatMap((c) => [[c.key, c.key] as [string, ResultColumn], ...c.aliases.map((a) => [a, c.key] as [string, ResultColumn])]),
  ...['admis', 'passed', 'reussi', 'decision', 'resultat_final'].map((a) => [a, 'admis'] as [string, ResultColumn]),
]);
const PASSED = new Set(['oui', 'o', 'yes', 'y', '1', 'true', 'vrai', 'admis', 'admise', 'reussi', 'reussie', 'passed']);
const FAILED = new Set(['non', 'n', 'no', '0', 'false', 'faux', 'ajourne', 'ajournee', 'refuse', 'refusee', 'echoue', 'failed']);
const CODE = /^[A-Za-z0-9-]{1,16}$/;
const CHUNK = 1000;
/** Staff look a candidate up one at a time; more than this an hour is someone walking the registry (ADR 0120). */
export const RESULTS_LOOKUPS = { perHour: 120 } as const;
/** Where a result of a school the platform does not know lies: outside every school, centre and province. */
const UNKNOWN_PLACE: Scope = { institutionId: -1, centreId: -1, educProvinceId: -1 };

export type NationalResultRow = typeof nationalResults.$inferInsert;

/**
 * The national exam's results (ADR 0060): loaded from the exam authority's export file, read to
 * find a candidate, and the source of batches made "from the national results".
 */
export class ResultsRegistryService {
  readonly job;
  private readonly lookups: RateLimiterPostgres;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly imports: ImportsService,
    private readonly log: { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
  ) {
    this.lookups = pgRateLimiter(db.$client, { keyPrefix: 'results_lookup', points: RESULTS_LOOKUPS.perHour, durationSeconds: 3600 });
    this.job = defineJob({
      name: 'results.import',
      payload: z.object({ fileKey: z.string(), sessionId: z.number().int().positive() }),
      retryLimit: 3,
      retryDelaySeconds: 30,
      expireInSeconds: 3600,
      handle: async ({ fileKey, sessionId }) => {
        const file = await this.storage.get(fileKey);
        if (!file) return this.log.warn({ fileKey }, 'results export file missing: nothing imported');
        const outcome = await this.importExport(file, sessionId);
        if (outcome.problems.length)
          this.log.warn({ fileKey, problems: outcome.problems.slice(0, 20), count: outcome.problems.length }, 'results export refused: nothing imported');
        else this.log.info({ fileKey, rows: outcome.rows }, 'results export imported');
      },
    });
  }

  /**
   * Loads an export file into a session's results, all rows or none: a row already there (same
   * session and candidate code) is replaced, so importing a corrected export again is safe.
   */
  async importExport(file: Buffer, sessionId: number): Promise<{ rows: number; problems: RowProblem[] }> {
    const [session] = await this.db.select().from(examSessions).where(eq(examSessions.id, sessionId));
    if (!session) throw new Error(`unknown session ${sessionId}`);
    const table = await readTable(file, new Set([...HEADER_HINTS, 'admis']));
    const index = new Map<ResultColumn, number>();
    table.header.cells.forEach((cell, i) => {
      const key = RESULT_HEADERS.get(normaliseHeader(cell));
      if (key && !index.has(key)) index.set(key, i);
    });
    const missing = IMPORT_COLUMNS.filter((c) => c.required && !index.has(c.key)).map((c) => c.key);
    if (missing.length) return { rows: 0, problems: [{ row: table.header.row, column: null, code: 'missing_columns', params: missingColumnsParams(table, missing) }] };

    const problems: RowProblem[] = [];
    const rows: NationalResultRow[] = [];
    const seen = new Map<string, number>();
    for (const { row, cells } of table.rows) {
      const cell = (key: ResultColumn) => (index.has(key) ? (cells[index.get(key)!] ?? '') : '');
      const problem = (column: RowProblem['column'], code: RowProblem['code'], params?: Record<string, unknown>) =>
        problems.push({ row, column, code, ...(params ? { params } : {}) });
      const before = problems.length;
      const code = readCandidateCode(cell('code_candidat'));
      if ('error' in code) problem('code_candidat', code.error);
      else if (seen.has(code.value)) problem('code_candidat', 'code_duplicate_in_file', { row: seen.get(code.value) });
      else seen.set(code.value, row);
      const last = readName(cell('nom'));
      if ('error' in last || !last.value) problem('nom', 'error' in last ? last.error : 'last_name_required');
      const middle = readName(cell('postnom'));
      if ('error' in middle) problem('postnom', middle.error);
      const first = readName(cell('prenom'));
      if ('error' in first || !first.value) problem('prenom', 'error' in first ? first.error : 'first_name_required');
      const birthDate = readBirthDate(cell('date_naissance'), session.year);
      if ('error' in birthDate) problem('date_naissance', birthDate.error);
      const birthPlace = cleanText(cell('lieu_naissance'));
      if (!birthPlace) problem('lieu_naissance', 'birth_place_required');
      const gender = readGender(cell('sexe'));
      if ('error' in gender) problem('sexe', gender.error);
      const [option, school, centre] = (['option', 'ecole', 'centre'] as const).map((k) => cleanText(cell(k)).toUpperCase());
      if (!CODE.test(option!)) problem('option', option ? 'option_unknown' : 'option_required', { value: option });
      if (!CODE.test(school!)) problem('ecole', school ? 'school_unknown' : 'school_required', { value: school });
      if (!CODE.test(centre!)) problem('centre', centre ? 'centre_unknown' : 'centre_required', { value: centre });
      const percentage = readPercentage(cell('pourcentage'));
      if ('error' in percentage) problem('pourcentage', percentage.error);
      const passedText = comparable(cell('admis'));
      if (problems.length > before) continue;
      const tenths = (percentage as { value: number }).value;
      rows.push({
        sessionId,
        candidateCode: (code as { value: string }).value,
        lastName: (last as { value: string }).value,
        middleName: (middle as { value: string | null }).value,
        firstName: (first as { value: string | null }).value,
        birthDate: (birthDate as { value: string }).value,
        birthPlace,
        gender: (gender as { value: 'M' | 'F' }).value,
        optionCode: option!,
        institutionCode: school!,
        centreCode: centre!,
        percentageTenths: tenths,
        passed: PASSED.has(passedText) ? true : FAILED.has(passedText) ? false : tenths >= 500,
      });
    }
    if (problems.length) return { rows: table.rows.length, problems };
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += CHUNK) await upsertResults(tx, rows.slice(i, i + CHUNK));
      await recordAudit(tx, { action: 'results.imported', actorLabel: 'results-import', subjectType: 'session', subjectId: sessionId, details: { rows: rows.length } });
    });
    return { rows: rows.length, problems: [] };
  }

  /**
   * `find-{product}`: one candidate's result in a session (by id, year or name), for staff whose
   * scope holds the candidate's school (results policy); at most RESULTS_LOOKUPS per account an
   * hour, so that no account walks the country's results.
   */
  async find(actor: Actor, matricule: string, sessionRef: number | string) {
    authorize(resultsPolicy.find(actor));
    await this.consumeLookup(actor);
    const session = await this.resolveSession(sessionRef);
    if (!session) throw new AppError('not_found');
    const [row] = await this.db
      .select({
        r: nationalResults,
        school: institutions.name,
        place: { institutionId: institutions.id, centreId: institutions.centreId, educProvinceId: institutions.educProvinceId },
        centre: centres.name,
        option: options.name,
      })
      .from(nationalResults)
      .leftJoin(institutions, eq(institutions.code, nationalResults.institutionCode))
      .leftJoin(centres, eq(centres.code, nationalResults.centreCode))
      .leftJoin(options, eq(options.code, nationalResults.optionCode))
      .where(and(eq(nationalResults.sessionId, session.id), eq(nationalResults.candidateCode, matricule)));
    if (!row) throw new AppError('not_found');
    // A school the platform does not know lies in no one's scope but the nation's.
    authorize(resultsPolicy.read(actor, row.place?.institutionId ? row.place : UNKNOWN_PLACE));
    const { r } = row;
    return {
      candidate_code: r.candidateCode,
      last_name: r.lastName,
      middle_name: r.middleName,
      first_name: r.firstName,
      birth_date: r.birthDate,
      birth_place: r.birthPlace,
      gender: r.gender,
      school: { code: r.institutionCode, name: row.school },
      centre: { code: r.centreCode, name: row.centre },
      option: { code: r.optionCode, name: row.option },
      percentage: r.percentageTenths / 10,
      passed: r.passed,
      session: { id: session.id, name: session.name, year: session.year },
    };
  }

  private async consumeLookup(actor: Actor): Promise<void> {
    await consumeAll([[this.lookups, String(actor.id)]]);
  }

  private async resolveSession(ref: number | string) {
    const text = typeof ref === 'string' ? ref.trim() : null;
    let where: SQL;
    if (typeof ref === 'number') where = ref >= 1900 ? eq(examSessions.year, ref) : eq(examSessions.id, ref);
    else if (/^\d+$/.test(text!)) where = Number(text) >= 1900 ? eq(examSessions.year, Number(text)) : eq(examSessions.id, Number(text));
    else where = ilike(examSessions.name, escapeLike(text!));
    const [session] = await this.db.select().from(examSessions).where(where);
    return session ?? null;
  }

  /**
   * `generations/import/from-{product}cd`: a batch of every passed candidate of the session and
   * province (within the user's scope) who is in no batch of that session yet. The rows are written
   * as a list and imported by the student-list job. Rows whose school, centre or option the platform
   * does not know (or whose centre is not the school's) cannot make a diploma: they are left out and
   * counted in `skipped`.
   */
  async createBatch(
    actor: Actor,
    input: { template_id: number; session_id: number; province_id: number; title: string | null },
    product: string,
  ): Promise<{ generationId: number; importationId: number; rows: number; skipped: number }> {
    const scope = actor.scope;
    const template = await this.imports.usableTemplate(actor, input.template_id);
    const session = await this.imports.session(input.session_id);
    await this.imports.checkProvince(actor, input.province_id);

    const notInBatch = sql`not exists (
      select 1 from generation_items gi join generations g on g.id = gi.generation_id
      where g.session_id = ${session.id} and g.status <> 'cancelled' and gi.candidate_code = ${nationalResults.candidateCode})`;
    const inProvince = [
      eq(nationalResults.sessionId, session.id),
      eq(nationalResults.passed, true),
      eq(institutions.educProvinceId, input.province_id),
      ...(scope.institutionId !== null ? [eq(institutions.id, scope.institutionId)] : []),
      ...(scope.centreId !== null ? [eq(institutions.centreId, scope.centreId)] : []),
      notInBatch,
    ];
    const rows = await this.db
      .select({ r: nationalResults, institutionId: institutions.id, centreId: centres.id, optionId: options.id, schoolCentreId: institutions.centreId })
      .from(nationalResults)
      .innerJoin(institutions, eq(institutions.code, nationalResults.institutionCode))
      .leftJoin(centres, eq(centres.code, nationalResults.centreCode))
      .leftJoin(options, eq(options.code, nationalResults.optionCode))
      .where(and(...inProvince))
      .orderBy(asc(nationalResults.institutionCode), asc(nationalResults.candidateCode));
    const usable = rows.filter((x) => x.centreId !== null && x.optionId !== null && x.centreId === x.schoolCentreId);
    if (!usable.length) throw fieldError('province_id', 'field.registry_nothing_to_import');

    const listKey = `imports/${randomUUID()}/list.csv`;
    await this.storage.put(listKey, Buffer.from(toListCsv(usable.map((x) => x.r)), 'utf8'));
    const title = input.title ?? null;
    const created = await this.db.transaction(async (tx) => {
      const out = await this.imports.createBatchFromList(tx, {
        userId: actor.id,
        scope,
        templateId: template.id,
        type: template.generationType,
        sessionId: session.id,
        provinceId: input.province_id,
        title,
        listKey,
        candidates: usable.map((x) => ({ institutionId: x.institutionId, centreId: x.centreId!, optionId: x.optionId! })),
      });
      await recordAudit(
        tx,
        {
          action: 'generation.created_from_registry',
          subjectType: 'generation',
          subjectId: out.generationId,
          details: { importation: out.importationId, rows: usable.length, skipped: rows.length - usable.length, source: product },
        },
        actor,
      );
      return out;
    });
    await this.imports.queueImportation(created.importationId);
    return { ...created, rows: usable.length, skipped: rows.length - usable.length };
  }
}

/** Bulk upsert of results (the seed and the export import). */
export async function upsertResults(db: Pick<Db, 'insert'>, rows: NationalResultRow[]): Promise<void> {
  if (!rows.length) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await db
    .insert(nationalResults)
    .values(rows)
    .onConflictDoUpdate({
      target: [nationalResults.sessionId, nationalResults.candidateCode],
      set: {
        lastName: excluded('last_name'),
        middleName: excluded('middle_name'),
        firstName: excluded('first_name'),
        birthDate: excluded('birth_date'),
        birthPlace: excluded('birth_place'),
        gender: excluded('gender'),
        institutionCode: excluded('institution_code'),
        centreCode: excluded('centre_code'),
        optionCode: excluded('option_code'),
        percentageTenths: excluded('percentage_tenths'),
        passed: excluded('passed'),
        importedAt: sql`now()`,
      },
    });
}

/** Results as a student list (the columns of IMPORT_COLUMNS), for the import job. */
export function toListCsv(rows: (typeof nationalResults.$inferSelect)[]): string {
  const quote = (v: string) => (/[;"\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = rows.map((r) =>
    [
      r.candidateCode,
      r.lastName,
      r.middleName ?? '',
      r.firstName ?? '',
      r.birthDate,
      r.birthPlace,
      r.gender,
      r.optionCode,
      r.institutionCode,
      r.centreCode,
      (r.percentageTenths / 10).toFixed(1),
      '',
    ]
      .map(quote)
      .join(';'),
  );
  return `${IMPORT_COLUMNS.map((c) => c.key).join(';')}\n${lines.join('\n')}\n`;
}
