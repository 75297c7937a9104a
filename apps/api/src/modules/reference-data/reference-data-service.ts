import {
  type CreateCentreRequest,
  type CreateSchoolRequest,
  type ProvincePlaces,
  placeCode,
  REFERENCE_IMPORT_COLUMNS,
  REFERENCE_LIMITS,
  type ReferenceImportResult,
  type RenamePlaceRequest,
} from '@sceau/contracts';
import { parse } from 'csv-parse/sync';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { centres, countries, educProvinces, institutionOptions, institutions, options } from '../../db/schema.ts';
import { byName } from '../../db/schema/folded.ts';
import { AppError, type FieldMessage, fieldError } from '../../lib/errors.ts';
import type { Actor } from '../../policies/actor.ts';
import { allowed, authorize } from '../../policies/policy.ts';
import { referenceDataPolicy } from '../../policies/reference-data-policy.ts';
import { recordAudit } from '../audit/audit-service.ts';
import { codeKey, nameKey } from './reference-matcher.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A problem of one row of a reference import (`errors:field.reference_import_<code>`, with `row` and `value`). */
export interface ImportRowProblem {
  row: number;
  code: string;
  params: Record<string, unknown>;
}

/** Header spellings met in real files, as compared (no case, accents or punctuation). */
const HEADER_ALIASES: Record<string, (typeof REFERENCE_IMPORT_COLUMNS)[number]> = {
  type: 'type',
  nature: 'type',
  code: 'code',
  nom: 'nom',
  name: 'nom',
  ville: 'ville',
  city: 'ville',
  province: 'province',
  provinceeducationnelle: 'province',
  educprovince: 'province',
  centre: 'centre',
  center: 'centre',
  codecentre: 'centre',
  options: 'options',
  option: 'options',
};
const TYPES: Record<string, 'centre' | 'ecole'> = { centre: 'centre', center: 'centre', ecole: 'ecole', school: 'ecole', etablissement: 'ecole', institution: 'ecole' };

/** Reference data kept by national staff (ADR 0139): the lists offered on /check-file, adding, renaming, importing. */
export class ReferenceDataService {
  constructor(private readonly db: Db) {}

  /** A province's centres, schools and the options, as far as the actor's scope reaches (a school account: its school and centre). */
  async places(actor: Actor, provinceId: number): Promise<ProvincePlaces> {
    authorize(referenceDataPolicy.browse(actor));
    const [province] = await this.db.select().from(educProvinces).where(eq(educProvinces.id, provinceId));
    if (!province) throw new AppError('not_found');
    const [centreRows, schoolRows, optionRows, taught] = await Promise.all([
      this.db
        .select()
        .from(centres)
        .where(eq(centres.educProvinceId, provinceId))
        .orderBy(asc(byName(centres.name)), asc(centres.id)),
      this.db
        .select({ school: institutions, centreCode: centres.code })
        .from(institutions)
        .innerJoin(centres, eq(centres.id, institutions.centreId))
        .where(eq(institutions.educProvinceId, provinceId))
        .orderBy(asc(byName(institutions.name)), asc(institutions.id)),
      this.db
        .select()
        .from(options)
        .orderBy(asc(byName(options.section)), asc(byName(options.name))),
      this.db
        .select({ institutionId: institutionOptions.institutionId, code: options.code })
        .from(institutionOptions)
        .innerJoin(options, eq(options.id, institutionOptions.optionId))
        .innerJoin(institutions, eq(institutions.id, institutionOptions.institutionId))
        .where(eq(institutions.educProvinceId, provinceId)),
    ]);
    const optionCodes = new Map<number, string[]>();
    for (const t of taught) optionCodes.set(t.institutionId, [...(optionCodes.get(t.institutionId) ?? []), t.code]);
    const schools = schoolRows.filter(({ school: s }) =>
      allowed(referenceDataPolicy.browsePlace(actor, { institutionId: s.id, centreId: s.centreId, educProvinceId: s.educProvinceId })),
    );
    // A school account sees its centre too (its list names it); a centre without a school of the scope is not shown to it.
    const visibleCentres = centreRows.filter(
      (c) =>
        allowed(referenceDataPolicy.browsePlace(actor, { institutionId: null, centreId: c.id, educProvinceId: c.educProvinceId })) ||
        schools.some((s) => s.school.centreId === c.id),
    );
    return {
      province: { id: province.id, code: province.code, name: province.name, province: province.province },
      centres: visibleCentres.map((c) => ({ id: c.id, code: c.code, name: c.name, city: c.city, educ_province_id: c.educProvinceId })),
      schools: schools.map(({ school: s, centreCode }) => ({
        id: s.id,
        code: s.code,
        name: s.name,
        city: s.city,
        country_id: s.countryId,
        centre_id: s.centreId,
        educ_province_id: s.educProvinceId,
        centre_code: centreCode,
        option_codes: (optionCodes.get(s.id) ?? []).sort(),
      })),
      options: optionRows.map((o) => ({ id: o.id, code: o.code, name: o.name, section: o.section })),
      abilities: { manage: allowed(referenceDataPolicy.manage(actor)) },
    };
  }

  async createCentre(actor: Actor, input: CreateCentreRequest) {
    authorize(referenceDataPolicy.manage(actor));
    return this.db.transaction(async (tx) => {
      await this.codeFree(tx, input.code, 'code');
      const [province] = await tx.select({ id: educProvinces.id }).from(educProvinces).where(eq(educProvinces.id, input.educ_province_id));
      if (!province) throw fieldError('educ_province_id', 'field.reference_province_unknown');
      const [row] = await tx.insert(centres).values({ code: input.code, name: input.name, city: input.city, educProvinceId: province.id }).returning();
      await recordAudit(tx, { action: 'reference.centre_created', subjectType: 'centre', subjectId: row!.id, details: { code: row!.code, name: row!.name } }, actor);
      return centreView(row!);
    });
  }

  async renameCentre(actor: Actor, id: number, input: RenamePlaceRequest) {
    authorize(referenceDataPolicy.manage(actor));
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(centres).where(eq(centres.id, id)).for('update');
      if (!before) throw new AppError('not_found');
      const [row] = await tx
        .update(centres)
        .set({ name: input.name, city: input.city ?? before.city })
        .where(eq(centres.id, id))
        .returning();
      await recordAudit(tx, { action: 'reference.centre_renamed', subjectType: 'centre', subjectId: id, details: { code: before.code, from: before.name, to: row!.name } }, actor);
      return centreView(row!);
    });
  }

  async createSchool(actor: Actor, input: CreateSchoolRequest) {
    authorize(referenceDataPolicy.manage(actor));
    return this.db.transaction(async (tx) => {
      await this.codeFree(tx, input.code, 'code');
      const [centre] = await tx.select().from(centres).where(eq(centres.id, input.centre_id));
      if (!centre) throw fieldError('centre_id', 'field.reference_centre_unknown');
      const optionIds = [...new Set(input.option_ids)];
      if (optionIds.length) {
        const known = await tx.select({ id: options.id }).from(options).where(inArray(options.id, optionIds));
        if (known.length !== optionIds.length) throw fieldError('option_ids', 'field.reference_option_unknown');
      }
      const countryId = await defaultCountry(tx);
      const [row] = await tx
        .insert(institutions)
        .values({ code: input.code, name: input.name, city: input.city, countryId, centreId: centre.id, educProvinceId: centre.educProvinceId })
        .returning();
      if (optionIds.length) await tx.insert(institutionOptions).values(optionIds.map((optionId) => ({ institutionId: row!.id, optionId })));
      await recordAudit(
        tx,
        { action: 'reference.school_created', subjectType: 'institution', subjectId: row!.id, details: { code: row!.code, name: row!.name, centre: centre.code } },
        actor,
      );
      return schoolView(row!);
    });
  }

  async renameSchool(actor: Actor, id: number, input: RenamePlaceRequest) {
    authorize(referenceDataPolicy.manage(actor));
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(institutions).where(eq(institutions.id, id)).for('update');
      if (!before) throw new AppError('not_found');
      const [row] = await tx
        .update(institutions)
        .set({ name: input.name, city: input.city ?? before.city })
        .where(eq(institutions.id, id))
        .returning();
      await recordAudit(
        tx,
        { action: 'reference.school_renamed', subjectType: 'institution', subjectId: id, details: { code: before.code, from: before.name, to: row!.name } },
        actor,
      );
      return schoolView(row!);
    });
  }

  /**
   * Schools and centres from a CSV: a row whose code is known renames that place (name, city), a
   * new code adds it. Every row is checked first; one problem anywhere and nothing is written
   * (the problems are answered, by row). Centres come before the schools that name them, whatever
   * the order of the rows. One transaction, one audit entry.
   */
  async importPlaces(actor: Actor, bytes: Buffer): Promise<{ result: ReferenceImportResult } | { problems: ImportRowProblem[]; fileProblem?: FieldMessage }> {
    authorize(referenceDataPolicy.manage(actor));
    const read = readPlacesCsv(bytes);
    if ('fileProblem' in read) return { problems: [], fileProblem: read.fileProblem };
    return this.db.transaction(async (tx) => {
      // One connection in a transaction: one query at a time.
      const provinceRows = await tx.select().from(educProvinces);
      const centreRows = await tx.select().from(centres);
      const schoolRows = await tx.select().from(institutions);
      const optionRows = await tx.select().from(options);
      const provinceBy = new Map(provinceRows.flatMap((p) => [[codeKey(p.code), p] as const, [nameKey(p.name), p] as const]));
      const centreBy = new Map(centreRows.map((c) => [codeKey(c.code), c]));
      const schoolBy = new Map(schoolRows.map((s) => [codeKey(s.code), s]));
      const optionBy = new Map(optionRows.map((o) => [codeKey(o.code), o]));
      const problems: ImportRowProblem[] = [];
      const problem = (row: number, code: string, params: Record<string, unknown> = {}) => problems.push({ row, code, params: { row, ...params } });
      const firstRow = new Map<string, number>();
      const newCentres = new Map<string, { row: number; code: string; name: string; city: string; provinceId: number }>();
      type Planned = { row: number; kind: 'centre' | 'ecole'; code: string; name: string; city: string; provinceId?: number; centreKey?: string; optionIds: number[] };
      const planned: Planned[] = [];

      for (const r of read.rows) {
        const kind = TYPES[nameKey(r.type)];
        if (!kind) {
          problem(r.row, 'type_invalid', { value: r.type });
          continue;
        }
        const code = placeCode.safeParse(r.code);
        if (!code.success) {
          problem(r.row, 'code_invalid', { value: r.code });
          continue;
        }
        const key = codeKey(code.data);
        if (firstRow.has(key)) {
          problem(r.row, 'code_repeated', { value: code.data, first: firstRow.get(key) });
          continue;
        }
        firstRow.set(key, r.row);
        const name = r.nom.replace(/\s+/g, ' ').trim();
        const city = r.ville.replace(/\s+/g, ' ').trim();
        if (name.length < 3 || name.length > REFERENCE_LIMITS.nameMax) problem(r.row, 'name_invalid', { max: REFERENCE_LIMITS.nameMax });
        const existingCentre = centreBy.get(key);
        const existingSchool = schoolBy.get(key);
        if (kind === 'centre' && existingSchool) problem(r.row, 'code_is_school', { value: code.data });
        if (kind === 'ecole' && existingCentre) problem(r.row, 'code_is_centre', { value: code.data });
        const isNew = !existingCentre && !existingSchool;
        if (city ? city.length < 2 || city.length > REFERENCE_LIMITS.cityMax : isNew) problem(r.row, 'city_invalid', { max: REFERENCE_LIMITS.cityMax });
        if (kind === 'centre') {
          const province = provinceBy.get(codeKey(r.province)) ?? provinceBy.get(nameKey(r.province));
          if (isNew && !province) problem(r.row, 'province_unknown', { value: r.province });
          else if (existingCentre && province && province.id !== existingCentre.educProvinceId) problem(r.row, 'place_moved', { value: code.data });
          if (isNew && province) newCentres.set(key, { row: r.row, code: code.data, name, city, provinceId: province.id });
          planned.push({ row: r.row, kind, code: code.data, name, city, provinceId: province?.id, optionIds: [] });
        } else {
          const centreKey = codeKey(r.centre);
          if (existingSchool && centreKey && centreBy.get(centreKey)?.id !== existingSchool.centreId) problem(r.row, 'place_moved', { value: code.data });
          const optionIds: number[] = [];
          for (const o of r.options.split(/[\s,;/|]+/).filter(Boolean)) {
            const option = optionBy.get(codeKey(o));
            if (option) optionIds.push(option.id);
            else problem(r.row, 'option_unknown', { value: o });
          }
          planned.push({ row: r.row, kind, code: code.data, name, city, centreKey, optionIds });
        }
      }
      // A new school's centre: known, or added by this file.
      for (const p of planned) {
        if (p.kind !== 'ecole' || schoolBy.has(codeKey(p.code))) continue;
        if (!p.centreKey || (!centreBy.has(p.centreKey) && !newCentres.has(p.centreKey)))
          problem(p.row, 'centre_unknown', { value: read.rows.find((r) => r.row === p.row)?.centre ?? '' });
      }
      if (problems.length) return { problems: problems.sort((a, b) => a.row - b.row) };

      const counts: ReferenceImportResult = { centres: { created: 0, renamed: 0, unchanged: 0 }, schools: { created: 0, renamed: 0, unchanged: 0 } };
      const countryId = await defaultCountry(tx);
      for (const p of planned.filter((x) => x.kind === 'centre')) {
        const existing = centreBy.get(codeKey(p.code));
        if (!existing) {
          const [row] = await tx.insert(centres).values({ code: p.code, name: p.name, city: p.city, educProvinceId: p.provinceId! }).returning();
          centreBy.set(codeKey(p.code), row!);
          counts.centres.created++;
        } else if (existing.name !== p.name || (p.city && existing.city !== p.city)) {
          await tx
            .update(centres)
            .set({ name: p.name, city: p.city || existing.city })
            .where(eq(centres.id, existing.id));
          counts.centres.renamed++;
        } else counts.centres.unchanged++;
      }
      for (const p of planned.filter((x) => x.kind === 'ecole')) {
        const existing = schoolBy.get(codeKey(p.code));
        if (!existing) {
          const centre = centreBy.get(p.centreKey!)!;
          const [row] = await tx
            .insert(institutions)
            .values({ code: p.code, name: p.name, city: p.city, countryId, centreId: centre.id, educProvinceId: centre.educProvinceId })
            .returning();
          if (p.optionIds.length) await tx.insert(institutionOptions).values([...new Set(p.optionIds)].map((optionId) => ({ institutionId: row!.id, optionId })));
          counts.schools.created++;
        } else {
          if (p.optionIds.length)
            await tx
              .insert(institutionOptions)
              .values([...new Set(p.optionIds)].map((optionId) => ({ institutionId: existing.id, optionId })))
              .onConflictDoNothing();
          if (existing.name !== p.name || (p.city && existing.city !== p.city)) {
            await tx
              .update(institutions)
              .set({ name: p.name, city: p.city || existing.city })
              .where(eq(institutions.id, existing.id));
            counts.schools.renamed++;
          } else counts.schools.unchanged++;
        }
      }
      await recordAudit(tx, { action: 'reference.imported', subjectType: 'reference_data', details: { rows: read.rows.length, ...counts } }, actor);
      return { result: counts };
    });
  }

  /** A code is one place's, school or centre: lists name both in their own columns, but a code read alone must say which. */
  private async codeFree(tx: Tx, code: string, field: string) {
    const [school] = await tx.select({ id: institutions.id }).from(institutions).where(eq(institutions.code, code));
    const [centre] = await tx.select({ id: centres.id }).from(centres).where(eq(centres.code, code));
    if (school || centre) throw fieldError(field, { key: 'field.reference_code_taken', params: { code } });
  }
}

async function defaultCountry(tx: Tx): Promise<number> {
  const [country] = await tx
    .select({ id: countries.id })
    .from(countries)
    .where(and(eq(countries.isDefault, true)));
  if (!country) throw new Error('no default country');
  return country.id;
}

function centreView(c: typeof centres.$inferSelect) {
  return { id: c.id, code: c.code, name: c.name, city: c.city, educ_province_id: c.educProvinceId };
}

function schoolView(s: typeof institutions.$inferSelect) {
  return { id: s.id, code: s.code, name: s.name, city: s.city, country_id: s.countryId, centre_id: s.centreId, educ_province_id: s.educProvinceId };
}

type CsvRow = Record<(typeof REFERENCE_IMPORT_COLUMNS)[number], string> & { row: number };

/** The CSV's rows by column (UTF-8 with or without BOM, or Windows-1252; `;`, `,` or tab), or the file's problem. */
export function readPlacesCsv(bytes: Buffer): { rows: CsvRow[] } | { fileProblem: FieldMessage } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  text = text.replace(/^\uFEFF/, '');
  if (!text.trim()) return { fileProblem: 'field.reference_import_empty' };
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = [';', '\t', ','].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ',');
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, trim: true });
  } catch {
    return { fileProblem: 'field.reference_import_unreadable' };
  }
  const [header = [], ...lines] = records;
  const index = new Map<string, number>();
  header.forEach((cell, i) => {
    const column = HEADER_ALIASES[nameKey(cell)];
    if (column && !index.has(column)) index.set(column, i);
  });
  const missing = ['type', 'code', 'nom'].filter((c) => !index.has(c));
  if (missing.length) return { fileProblem: { key: 'field.reference_import_columns', params: { columns: missing.join(', '), expected: REFERENCE_IMPORT_COLUMNS.join(';') } } };
  if (lines.length > REFERENCE_LIMITS.importMaxRows) return { fileProblem: { key: 'field.reference_import_too_many_rows', params: { max: REFERENCE_LIMITS.importMaxRows } } };
  // Row numbers as a spreadsheet shows them (the header is row 1); blank rows are skipped, not renumbered.
  const rows = lines.flatMap((cells, i) => {
    if (cells.every((c) => !c.trim())) return [];
    const cell = (c: (typeof REFERENCE_IMPORT_COLUMNS)[number]) => {
      const at = index.get(c);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    };
    return [
      { row: i + 2, type: cell('type'), code: cell('code'), nom: cell('nom'), ville: cell('ville'), province: cell('province'), centre: cell('centre'), options: cell('options') },
    ];
  });
  if (!rows.length) return { fileProblem: 'field.reference_import_empty' };
  return { rows };
}
