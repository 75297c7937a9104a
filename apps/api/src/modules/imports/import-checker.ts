import { IMPORT_COLUMNS, IMPORT_LIMITS, type ImportColumn, type ImportErrorCode } from '@sceau/contracts';
import { isFittedPhoto } from '@sceau/pdf';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type yauzl from 'yauzl';
import type { Db } from '../../db/client.ts';
import { centres, generationItems, generations, institutions, options } from '../../db/schema.ts';
import { isWithin, type Scope } from '../../policies/scope.ts';
import { describePlace, type Match, type Place, ReferenceMatcher } from '../reference-data/reference-matcher.ts';
import { cleanText, comparable, readBirthDate, readCandidateCode, readEmail, readGender, readName, readPercentage, readPhone } from './row-values.ts';
import { type PhotoUnreadable, type PhotoWarning, readPhoto } from './photo-reading.ts';
import { normaliseHeader, type Table } from './table-reader.ts';
import { baseName, type ZipArchive } from './zip-archive.ts';

/** A problem found in a list, before translation. */
export interface RowProblem {
  row: number;
  column: ImportColumn | null;
  code: ImportErrorCode;
  params?: Record<string, unknown>;
}

/** A row that passed every check: what the batch will hold. */
export interface CheckedCandidate {
  row: number;
  candidateCode: string;
  lastName: string;
  middleName: string | null;
  firstName: string;
  birthDate: string;
  birthPlace: string;
  gender: 'M' | 'F';
  optionId: number;
  institutionId: number;
  centreId: number;
  percentageTenths: number;
  /** Contacts for distribution (optional columns). */
  phone: string | null;
  email: string | null;
  /** The photo's name in the zip (ZipArchive.files), or null. */
  photo: string | null;
}

/** A row's usable photo that will print poorly or cropped (ADR 0147): said, not refused. */
export interface PhotoNote {
  row: number;
  candidateCode: string;
  file: string;
  warning: PhotoWarning;
}

export interface PhotoSummary {
  files: number;
  matched: number;
  /** Rows to be imported without a photo (none in the zip for them), each named. */
  missing: { row: number; candidateCode: string }[];
  warnings: PhotoNote[];
}

export interface CheckOutcome {
  rows: number;
  candidates: CheckedCandidate[];
  problems: RowProblem[];
  photos: PhotoSummary | null;
}

export interface CheckContext {
  sessionId: number;
  sessionYear: number;
  provinceId: number;
  scope: Scope;
  zip: ZipArchive | null;
}

const HEADER_KEYS = new Map<string, ImportColumn>(IMPORT_COLUMNS.flatMap((c) => [[c.key, c.key] as const, ...c.aliases.map((a) => [a, c.key] as const)]));
/** Every header spelling the reader should recognise. */
export const HEADER_HINTS: ReadonlySet<string> = new Set(HEADER_KEYS.keys());

/** A photo named after the candidate's code: these extensions first, then any file of that stem (refused if it is no photo). */
export const PHOTO_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp', '.heic', '.heif', '.gif'];
/** Photos are stored at 300 × 400 pixels (the diploma's photo box at 200 dpi), as JPEGs of at most 30 KB. */
export const PHOTO_BOX_MM = { w: 38.1, h: 50.8 };
export const PHOTO_LIMITS = { dpi: 200, maxBytes: 30_000 };
const BIRTH_PLACE_MAX = 120;

/**
 * Checks every row of a list before anything is written: values, reference data (option, school in
 * the chosen province and the user's scope, the school's centre), duplicates in the file and against
 * the session's other batches, and the photos the zip must hold. The two halves, `readRows` (the
 * file alone) and `checkRows` (against the database), may run apart: see ImportsService.recheck.
 */
export async function checkTable(db: Db, table: Table, context: CheckContext): Promise<CheckOutcome> {
  return checkRows(db, await readRows(table, context), context);
}

/** A row as the file alone says it: its values, their problems, the photo the zip holds for it. */
export interface ReadRow {
  row: number;
  /** Problems of the row's own values, in column order: those before the reference columns (option, school, centre) and after. */
  before: RowProblem[];
  after: RowProblem[];
  /** The candidate code when it reads, even if other values do not (duplicates are looked for by it). */
  code: string | null;
  /** The clean values, when none has a problem. */
  values: Omit<CheckedCandidate, 'row' | 'candidateCode' | 'optionId' | 'institutionId' | 'centreId' | 'photo'> | null;
  /** Option, school and centre as typed (clean) and as compared (`comparable`). */
  option: [string, string];
  school: [string, string];
  centre: [string, string];
  /** The photo's name in the zip (its key in ZipArchive.files), when the zip holds a readable one. */
  photo: string | null;
  /** What the photo will look like printed (ADR 0147), when it has something against it. */
  photoWarnings?: PhotoWarning[];
}

/** What a list holds by itself: a pure function of its bytes, its zip's bytes and the session's year. */
export interface ReadList {
  rows: number;
  /** A problem with the whole file (missing columns, too many rows): no row is read then. */
  fileProblem: RowProblem | null;
  read: ReadRow[];
  /** Files in the zip, or null without one. */
  zipFiles: number | null;
}

/**
 * What "required columns missing" names: the columns, and for a workbook the sheet read and the
 * sheets it has, so a list behind an "Instructions" sheet says where it was looked for.
 */
export function missingColumnsParams(table: Pick<Table, 'sheet' | 'sheets'>, missing: readonly string[]): Record<string, string> {
  return { columns: missing.join(', '), ...(table.sheet !== null ? { context: 'sheet', sheet: table.sheet, sheets: table.sheets.join(', ') } : {}) };
}

/** The first half of the check: the list's rows and photos, without the database. */
export async function readRows(table: Table, context: Pick<CheckContext, 'sessionYear' | 'zip'>): Promise<ReadList> {
  const columnIndex = new Map<ImportColumn, number>();
  table.header.cells.forEach((cell, index) => {
    const key = HEADER_KEYS.get(normaliseHeader(cell));
    if (key && !columnIndex.has(key)) columnIndex.set(key, index);
  });
  const zipFiles = context.zip ? context.zip.files.size : null;
  const missing = IMPORT_COLUMNS.filter((c) => c.required && !columnIndex.has(c.key)).map((c) => c.key);
  if (missing.length) {
    return {
      rows: table.rows.length,
      read: [],
      zipFiles,
      fileProblem: { row: table.header.row, column: null, code: 'missing_columns', params: missingColumnsParams(table, missing) },
    };
  }
  if (table.rows.length > IMPORT_LIMITS.maxRows) {
    return { rows: table.rows.length, read: [], zipFiles, fileProblem: { row: table.header.row, column: null, code: 'too_many_rows', params: { max: IMPORT_LIMITS.maxRows } } };
  }

  const read: ReadRow[] = [];
  for (const { row, cells } of table.rows) {
    const cell = (key: ImportColumn) => {
      const index = columnIndex.get(key);
      return index === undefined ? '' : (cells[index] ?? '');
    };
    const before: RowProblem[] = [];
    const after: RowProblem[] = [];
    let problems = before;
    const problem = (column: ImportColumn, code: ImportErrorCode, params?: Record<string, unknown>) => problems.push({ row, column, code, ...(params ? { params } : {}) });

    const code = readCandidateCode(cell('code_candidat'));
    if ('error' in code) problem('code_candidat', code.error);

    const lastName = readName(cell('nom'));
    if ('error' in lastName) problem('nom', lastName.error);
    else if (!lastName.value) problem('nom', 'last_name_required');
    const middleName = readName(cell('postnom'));
    if ('error' in middleName) problem('postnom', middleName.error);
    const firstName = readName(cell('prenom'));
    if ('error' in firstName) problem('prenom', firstName.error);
    else if (!firstName.value) problem('prenom', 'first_name_required');

    const birthDate = readBirthDate(cell('date_naissance'), context.sessionYear);
    if ('error' in birthDate) problem('date_naissance', birthDate.error, birthDate.error === 'birth_date_implausible' ? { min: 14, max: 70 } : undefined);
    const birthPlace = cleanText(cell('lieu_naissance'));
    if (!birthPlace) problem('lieu_naissance', 'birth_place_required');
    else if (birthPlace.length > BIRTH_PLACE_MAX) problem('lieu_naissance', 'name_invalid');
    const gender = readGender(cell('sexe'));
    if ('error' in gender) problem('sexe', gender.error);

    problems = after;
    const percentage = readPercentage(cell('pourcentage'));
    if ('error' in percentage) problem('pourcentage', percentage.error);

    const phone = readPhone(cell('telephone'));
    if ('error' in phone) problem('telephone', phone.error, phone.params);
    const email = readEmail(cell('email'));
    if ('error' in email) problem('email', email.error);

    let photo: string | null = null;
    let warnings: PhotoWarning[] | undefined;
    if (context.zip) {
      const named = baseName(cleanText(cell('photo')));
      const codeValue = 'value' in code ? code.value : null;
      const key = named ? named : codeValue ? photoKeyFor(context.zip, codeValue) : undefined;
      const entry = key ? context.zip.files.get(key) : undefined;
      if (named && !entry) problem('photo', 'photo_not_in_zip', { value: cleanText(cell('photo')) });
      else if (entry) {
        const checked = await checkPhoto(context.zip, entry);
        if ('problem' in checked) problem('photo', checked.problem, { value: entry.fileName, ...(checked.reason ? { context: checked.reason } : {}) });
        else {
          photo = key!;
          if (checked.warnings.length) warnings = checked.warnings;
        }
      }
    }

    const clean = !before.length && !after.length;
    read.push({
      row,
      before,
      after,
      code: 'value' in code ? code.value : null,
      values: clean
        ? {
            lastName: (lastName as { value: string }).value,
            middleName: (middleName as { value: string | null }).value,
            firstName: (firstName as { value: string }).value,
            birthDate: (birthDate as { value: string }).value,
            birthPlace,
            gender: (gender as { value: 'M' | 'F' }).value,
            percentageTenths: (percentage as { value: number }).value,
            phone: (phone as { value: string | null }).value,
            email: (email as { value: string | null }).value,
          }
        : null,
      option: [cleanText(cell('option')), comparable(cell('option'))],
      school: [cleanText(cell('ecole')), comparable(cell('ecole'))],
      centre: [cleanText(cell('centre')), comparable(cell('centre'))],
      photo,
      ...(warnings ? { photoWarnings: warnings } : {}),
    });
  }
  return { rows: table.rows.length, fileProblem: null, read, zipFiles };
}

/**
 * The second half: reference data (which may change between two checks), the province and the
 * user's scope, duplicates in the file and against the session's batches. Cheap: a few hundred
 * reference rows and one indexed query per 5,000 codes.
 */
export async function checkRows(db: Db, list: ReadList, context: Pick<CheckContext, 'sessionId' | 'provinceId' | 'scope'>): Promise<CheckOutcome> {
  const photos: PhotoSummary | null = list.zipFiles === null ? null : { files: list.zipFiles, matched: 0, missing: [], warnings: [] };
  if (list.fileProblem) return { rows: list.rows, candidates: [], photos, problems: [list.fileProblem] };

  const reference = await loadReferenceData(db);
  const problems: RowProblem[] = [];
  const candidates: CheckedCandidate[] = [];
  const firstRowOfCode = new Map<string, number>();

  for (const r of list.read) {
    const { row } = r;
    const rowProblems: RowProblem[] = [];
    const problem = (column: ImportColumn, code: ImportErrorCode, params?: Record<string, unknown>) => rowProblems.push({ row, column, code, ...(params ? { params } : {}) });
    // The code's own problem comes first, then a duplicate in the file, then the other values.
    const [codeProblem, ...otherBefore] = r.before[0]?.column === 'code_candidat' ? r.before : [undefined, ...r.before];
    if (codeProblem) rowProblems.push(codeProblem);
    else if (r.code !== null && firstRowOfCode.has(r.code)) problem('code_candidat', 'code_duplicate_in_file', { row: firstRowOfCode.get(r.code) });
    else if (r.code !== null) firstRowOfCode.set(r.code, row);
    rowProblems.push(...(otherBefore as RowProblem[]));

    // Option, school and centre by code or by name (ADR 0139); an unknown one gets "did you mean".
    const [optionTyped] = r.option;
    const option = optionTyped ? placeOf(reference.options.match(optionTyped), 'option', optionTyped, problem) : undefined;
    if (!optionTyped) problem('option', 'option_required');

    const [schoolTyped] = r.school;
    const school = schoolTyped ? placeOf(reference.schools.match(schoolTyped, context.provinceId), 'ecole', schoolTyped, problem) : undefined;
    if (!schoolTyped) problem('ecole', 'school_required');
    else if (school && school.educProvinceId !== context.provinceId) problem('ecole', 'school_outside_province', { value: school.code });
    else if (school && !isWithin(context.scope, { institutionId: school.id, centreId: school.centreId, educProvinceId: school.educProvinceId }))
      problem('ecole', 'school_outside_scope', { value: school.code });

    const [centreTyped] = r.centre;
    let centreMatch = centreTyped ? reference.centres.match(centreTyped, context.provinceId) : undefined;
    // A centre's name borne by several centres, one of them the school's: that one.
    if (centreMatch && 'ambiguous' in centreMatch && school) {
      const own = centreMatch.ambiguous.find((c) => c.id === school.centreId);
      if (own) centreMatch = { found: own };
    }
    const centre = centreMatch ? placeOf(centreMatch, 'centre', centreTyped, problem) : undefined;
    if (!centreTyped) problem('centre', 'centre_required');
    else if (centre && school && school.centreId !== centre.id) problem('centre', 'centre_mismatch', { value: centre.code, expected: reference.centreCodes.get(school.centreId) });

    rowProblems.push(...r.after);
    if (rowProblems.length) {
      problems.push(...rowProblems);
      continue;
    }
    candidates.push({ row, candidateCode: r.code!, ...r.values!, optionId: option!.id, institutionId: school!.id, centreId: centre!.id, photo: r.photo });
    if (r.photo && photos) {
      photos.matched++;
      for (const warning of r.photoWarnings ?? []) photos.warnings.push({ row, candidateCode: r.code!, file: r.photo, warning });
    } else if (photos) photos.missing.push({ row, candidateCode: r.code! });
  }

  // Against the session's other batches (a cancelled batch frees its candidates).
  const known = await findImportedCodes(db, context.sessionId, [...firstRowOfCode.keys()]);
  if (known.size) {
    for (const [code, generationId] of known)
      problems.push({ row: firstRowOfCode.get(code)!, column: 'code_candidat', code: 'code_already_imported', params: { generation: generationId } });
    const refused = new Set(known.keys());
    candidates.splice(0, candidates.length, ...candidates.filter((c) => !refused.has(c.candidateCode)));
    if (photos) {
      photos.missing = photos.missing.filter((m) => !refused.has(m.candidateCode));
      photos.warnings = photos.warnings.filter((w) => !refused.has(w.candidateCode));
      photos.matched = candidates.filter((c) => c.photo).length;
    }
  }
  problems.sort((a, b) => a.row - b.row);
  return { rows: list.rows, candidates, problems, photos };
}

const stems = new WeakMap<ZipArchive, Map<string, string>>();

/**
 * The zip's file for a candidate code: `<code>.jpg` and the other photo extensions first, then any
 * file of that stem (`<code>.pdf`, `<code>.bmp`), which the check then refuses for what it is
 * rather than leaving the row silently without a photo.
 */
export function photoKeyFor(zip: ZipArchive, candidateCode: string): string | undefined {
  const code = candidateCode.toLowerCase();
  const known = PHOTO_EXTENSIONS.map((ext) => `${code}${ext}`).find((k) => zip.files.has(k));
  if (known) return known;
  let byStem = stems.get(zip);
  if (!byStem) {
    byStem = new Map();
    for (const name of zip.files.keys()) {
      const dot = name.lastIndexOf('.');
      const stem = dot > 0 ? name.slice(0, dot) : name;
      if (!byStem.has(stem)) byStem.set(stem, name);
    }
    stems.set(zip, byStem);
  }
  return byStem.get(code);
}

export type PhotoCheck = { problem: ImportErrorCode; reason?: PhotoUnreadable } | { warnings: PhotoWarning[] };

/** One photo of a zip: usable (with what it has against it), or why not. */
export async function checkPhoto(zip: ZipArchive, entry: yauzl.Entry): Promise<PhotoCheck> {
  if (entry.uncompressedSize > IMPORT_LIMITS.photoMaxBytes) return { problem: 'photo_too_large' };
  let bytes: Buffer;
  try {
    bytes = await zip.read(entry);
  } catch {
    return { problem: 'photo_unreadable', reason: 'damaged' };
  }
  // A photo already fitted to the box is a well-formed JPEG the import keeps as it is (ADR 0107):
  // its segment headers say so in microseconds, where sharp's metadata costs a quarter of a
  // millisecond of CPU and a trip through its thread pool.
  if (isFittedPhoto(bytes, PHOTO_BOX_MM, PHOTO_LIMITS)) return { warnings: [] };
  const read = await readPhoto(bytes);
  if ('unreadable' in read) return { problem: 'photo_unreadable', reason: read.unreadable };
  return { warnings: read.warnings };
}

/** Candidate codes already in a batch of the session that is not cancelled, with that batch. */
export async function findImportedCodes(db: Pick<Db, 'select'>, sessionId: number, codes: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < codes.length; i += 5000) {
    const chunk = codes.slice(i, i + 5000);
    if (!chunk.length) continue;
    const rows = await db
      .select({ code: generationItems.candidateCode, generationId: generationItems.generationId })
      .from(generationItems)
      .innerJoin(generations, eq(generations.id, generationItems.generationId))
      .where(and(eq(generations.sessionId, sessionId), ne(generations.status, 'cancelled'), inArray(generationItems.candidateCode, chunk)));
    for (const r of rows) if (!found.has(r.code)) found.set(r.code, r.generationId);
  }
  return found;
}

const REFERENCE_PROBLEMS = {
  option: { unknown: 'option_unknown', ambiguous: 'option_ambiguous' },
  ecole: { unknown: 'school_unknown', ambiguous: 'school_ambiguous' },
  centre: { unknown: 'centre_unknown', ambiguous: 'centre_ambiguous' },
} as const satisfies Partial<Record<ImportColumn, { unknown: ImportErrorCode; ambiguous: ImportErrorCode }>>;

/**
 * The place a match found, or the problem it raises: several places of that name (named, with their
 * codes), or none (with the closest names: the message's `suggest` context).
 */
function placeOf<T extends Place>(
  match: Match<T>,
  column: keyof typeof REFERENCE_PROBLEMS,
  typed: string,
  problem: (column: ImportColumn, code: ImportErrorCode, params?: Record<string, unknown>) => void,
): T | undefined {
  if ('found' in match) return match.found;
  if ('ambiguous' in match) {
    problem(column, REFERENCE_PROBLEMS[column].ambiguous, { value: typed, matches: match.ambiguous.map(describePlace).join(', ') });
    return undefined;
  }
  const suggestions = match.suggestions.map(describePlace).join(', ');
  problem(column, REFERENCE_PROBLEMS[column].unknown, suggestions ? { value: typed, suggestions, context: 'suggest' } : { value: typed });
  return undefined;
}

/** Every school, centre and option, ready to be found by code or name. A few hundred rows to a few tens of thousands: read once per check. */
async function loadReferenceData(db: Db) {
  const [schoolRows, centreRows, optionRows] = await Promise.all([
    db
      .select({ id: institutions.id, code: institutions.code, name: institutions.name, centreId: institutions.centreId, educProvinceId: institutions.educProvinceId })
      .from(institutions),
    db.select({ id: centres.id, code: centres.code, name: centres.name, educProvinceId: centres.educProvinceId }).from(centres),
    db.select({ id: options.id, code: options.code, name: options.name, section: options.section }).from(options),
  ]);
  return {
    schools: new ReferenceMatcher(schoolRows),
    centres: new ReferenceMatcher(centreRows),
    centreCodes: new Map(centreRows.map((c) => [c.id, c.code])),
    // An option is also written with its section: "Scientifique Biologie-Chimie", "Scientifique, option Biologie-Chimie".
    options: new ReferenceMatcher(optionRows, (o) => [`${o.section} ${o.name}`, `${o.section} option ${o.name}`]),
  };
}
