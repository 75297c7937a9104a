/**
 * Later revisions of a signed PDF (ADR 0138). A PAdES B-LTA diploma grows after its signature:
 * incremental updates add the validation data (/DSS with certificates, CRLs, OCSP answers, /VRI)
 * and document timestamps (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161). Those revisions are
 * accepted; any other is "changed after signing". Each later revision is compared with the one
 * before it, by the objects it defines (its cross-reference section), against an allow-list:
 *
 *  - new objects must be reached from the catalog's /DSS (the DSS, /VRI, their arrays, and
 *    streams of validation data: /Length and /FlateDecode at most) or be a document timestamp's
 *    signature field (widget of zero area, no appearance) and its /DocTimeStamp dictionary, added
 *    to /AcroForm /Fields (and, optionally, to a page's /Annots);
 *  - objects of an earlier revision may be redefined only if they are the catalog (every entry
 *    unchanged but /DSS and /AcroForm), the AcroForm or its /Fields array (unchanged but the
 *    fields appended and /SigFlags), a page (unchanged but widgets appended to /Annots), or
 *    validation material an earlier accepted revision added (still reached from /DSS);
 *  - the revision's body holds exactly the objects its section lists, one after the other, and
 *    its trailer keeps /Root and /Info; no object is freed;
 *  - a document timestamp's /ByteRange covers exactly its revision and excludes exactly its
 *    /Contents; its token's imprint is the hash of those bytes and its TSA signature verifies.
 *
 * Only classic cross-reference tables (the platform's own writer); anything else is refused,
 * never guessed. Bounded: revisions, objects per revision, nesting, token size.
 */
import type { X509Certificate } from 'node:crypto';
import { readNode } from '@sceau/pdf/der';
import { verifyPdfSignature, type PdfSignatureCheck } from '@sceau/pdf/pades';
import { fail, isDict, isName, isRef, isString, PdfLexer, readXrefSection, Unsupported, type Dict, type Ref, type Value, type XrefEntry } from './pdf-reader.ts';
import { checkTimestampToken, sha256Of, type TimestampCheck } from './timestamp-token.ts';

export const REVISION_LIMITS = {
  /** Revisions after the signed one (each B-LTA renewal adds two). */
  laterRevisions: 32,
  /** Cross-reference entries of all sections together (the renderer writes < 200 objects). */
  entries: 20_000,
  /** Values parsed in the later revisions' objects (a DSS of 2,000 streams is ~8,000). */
  values: 20_000,
  /** Bytes of strings in them (a document time-stamp's /Contents is ~10 KB). */
  stringBytes: 1024 * 1024,
  /** Objects one later revision may define (a DSS with a long chain and many CRLs is well below). */
  objectsPerRevision: 2_000,
  /** Entries in one DSS or VRI array or dictionary. */
  arrayItems: 2_000,
} as const;

export interface Revision {
  /** First byte of the revision (0, or the previous revision's end). */
  start: number;
  /** Offset of its xref section. */
  xrefAt: number;
  /** After its %%EOF and end of line. */
  end: number;
  entries: Map<number, XrefEntry>;
  trailer: Dict;
}

/** A document timestamp of a later revision. */
export interface DocumentTimestamp {
  revision: number;
  genTime?: string;
  tsa?: string;
  /** Its TSA chains to a trusted authority (not required to accept the revision). */
  trusted: boolean;
}

export interface LaterRevisions {
  /** How many revisions follow the signed one (all accepted). */
  count: number;
  dss: boolean;
  documentTimestamps: DocumentTimestamp[];
}

const textOf = (pdf: Uint8Array) => Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');

/**
 * The revisions of a PDF with classic cross-reference tables, oldest first; null if it has any
 * other structure (a cross-reference stream, a section that does not end with its own startxref
 * and %%EOF, a loop).
 */
export function readRevisions(pdf: Uint8Array, text = textOf(pdf)): Revision[] | null {
  try {
    const tail = text.slice(Math.max(0, text.length - 1024));
    const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
    if (!match) return null;
    const found: Omit<Revision, 'start'>[] = [];
    const seen = new Set<number>();
    let entryCount = 0;
    const trailerBudget = { values: 10_000, stringBytes: 64 * 1024 };
    for (let at: number | null = Number(match[1]); at !== null; ) {
      if (seen.has(at) || seen.size > REVISION_LIMITS.laterRevisions + 1) return null;
      seen.add(at);
      if (!text.startsWith('xref', at)) return null;
      const trailerAt = text.indexOf('trailer', at);
      if (trailerAt < 0) return null;
      const entries = readXrefSection(text, at + 4, trailerAt, REVISION_LIMITS.entries - entryCount);
      entryCount += entries.size;
      const lexer = new PdfLexer(text);
      lexer.budget = trailerBudget;
      lexer.pos = trailerAt + 'trailer'.length;
      const trailer = lexer.parseValue(0);
      if (!isDict(trailer) || trailer.entries.has('XRefStm')) return null;
      const close = /^\s*startxref\s+(\d+)\s+%%EOF(\r\n|\r|\n)?/.exec(text.slice(lexer.pos, lexer.pos + 64));
      if (!close || Number(close[1]) !== at) return null;
      found.push({ xrefAt: at, end: lexer.pos + close[0].length, entries, trailer });
      const prev = trailer.entries.get('Prev');
      at = typeof prev === 'number' ? prev : prev === undefined ? null : fail('bad /Prev');
    }
    found.reverse();
    const revisions: Revision[] = [];
    let start = 0;
    for (const revision of found) {
      if (revision.xrefAt < start) return null;
      revisions.push({ ...revision, start });
      start = revision.end;
    }
    // The last revision ends the file (trailing white space at most).
    if (text.slice(start).trim() !== '') return null;
    return revisions;
  } catch {
    return null;
  }
}

/** One object as written in a revision: its value, and where it starts and ends. */
interface Parsed {
  value: Value;
  offset: number;
  end: number;
  /** A stream: its data's bytes (raw) span. */
  stream?: { start: number; end: number };
}

function parseObjectAt(text: string, offset: number, num: number, gen: number, budget: PdfLexer['budget']): Parsed {
  const header = /^(\d+)\s+(\d+)\s+obj(?![^\s/<>[\]()%{}])/.exec(text.slice(offset, offset + 32));
  if (!header || Number(header[1]) !== num || Number(header[2]) !== gen) fail(`object ${num} is not where its section says`);
  const lexer = new PdfLexer(text);
  lexer.budget = budget;
  lexer.pos = offset + header![0].length;
  const value = lexer.parseValue(0);
  lexer.skipWhite();
  let stream: Parsed['stream'];
  if (text.startsWith('stream', lexer.pos)) {
    if (!isDict(value)) fail('stream without a dictionary');
    const length = (value as Dict).entries.get('Length');
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) fail('a stream of a later revision must have a direct /Length');
    let at = lexer.pos + 'stream'.length;
    if (text.charCodeAt(at) === 0x0d) at++;
    if (text.charCodeAt(at) !== 0x0a) fail('stream keyword not followed by an end of line');
    stream = { start: at + 1, end: at + 1 + (length as number) };
    lexer.pos = stream.end;
    lexer.skipWhite();
    if (!text.startsWith('endstream', lexer.pos)) fail(`object ${num}: stream length does not reach endstream`);
    lexer.pos += 'endstream'.length;
    lexer.skipWhite();
  }
  if (!text.startsWith('endobj', lexer.pos)) fail(`object ${num} does not end with endobj`);
  if (stream) (value as Dict).streamAt = stream.start;
  return { value, offset, end: lexer.pos + 'endobj'.length, ...(stream ? { stream } : {}) };
}

/** Structural equality of two values (references by number and generation). */
function same(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]));
  }
  if (a.kind !== b.kind) return false;
  if (a.kind === 'name') return a.name === (b as typeof a).name;
  if (a.kind === 'ref') return a.num === (b as Ref).num && a.gen === (b as Ref).gen;
  if (a.kind === 'string') return Buffer.from(a.bytes).equals(Buffer.from((b as typeof a).bytes));
  const da = a as Dict;
  const db = b as Dict;
  if (da.entries.size !== db.entries.size) return false;
  for (const [key, value] of da.entries) if (!db.entries.has(key) || !same(value, db.entries.get(key))) return false;
  return da.streamAt === db.streamAt;
}

const nameIs = (value: Value | undefined, name: string) => isName(value) && value.name === name;

class Refused extends Error {}
const refuse = (why: string): never => {
  throw new Refused(why);
};

/**
 * The whole file's revisions and the objects each defines, read lazily: a later revision's objects
 * are parsed when checked; an earlier revision's only when a later one redefines or names them.
 */
export class History {
  private readonly parsed = new Map<string, Parsed>();
  /** What parsing the later revisions may cost in all (REVISION_LIMITS). */
  readonly budget = { values: REVISION_LIMITS.values, stringBytes: REVISION_LIMITS.stringBytes };

  constructor(
    readonly pdf: Uint8Array,
    readonly text: string,
    readonly revisions: Revision[],
  ) {}

  /** Which revision defined `num` last, as of revision `at` (inclusive); -1 if none. */
  definedIn(num: number, at: number): number {
    for (let r = at; r >= 0; r--) if (this.revisions[r]!.entries.has(num)) return this.revisions[r]!.entries.get(num)!.free ? -1 : r;
    return -1;
  }

  object(num: number, at: number): Parsed | undefined {
    const r = this.definedIn(num, at);
    if (r < 0) return undefined;
    const key = `${r}:${num}`;
    let parsed = this.parsed.get(key);
    if (!parsed) {
      const entry = this.revisions[r]!.entries.get(num)!;
      parsed = parseObjectAt(this.text, entry.offset, num, entry.gen, this.budget);
      this.parsed.set(key, parsed);
    }
    return parsed;
  }

  /** A value with one reference followed, as of revision `at`. */
  resolve(value: Value | undefined, at: number): Value | undefined {
    return isRef(value) ? this.object(value.num, at)?.value : value;
  }
}

/**
 * The revision holding the document signature: the first update that defines a signature
 * dictionary other than a document timestamp (the ministry signs the rendered document once;
 * anything after it, a second signature included, must be validation data). null when nothing
 * follows it (the whole file is the signed revision: checked as before), when no update signs,
 * or when the structure is not handled.
 */
export function findSignedRevision(pdf: Uint8Array, text = textOf(pdf)): { revisions: Revision[]; signed: number; history: History } | null {
  const revisions = readRevisions(pdf, text);
  if (!revisions || revisions.length < 2) return null;
  if (revisions.length - 1 > REVISION_LIMITS.laterRevisions + 1) return null;
  const history = new History(pdf, text, revisions);
  // Revision 0 (the rendered document) is never searched: a signature is an update.
  for (let r = 1; r < revisions.length; r++) {
    const entries = revisions[r]!.entries;
    if (entries.size > REVISION_LIMITS.objectsPerRevision) return null;
    for (const [num, entry] of entries) {
      if (entry.free) continue;
      let value: Value;
      try {
        value = history.object(num, r)!.value;
      } catch {
        return null;
      }
      if (isDict(value) && value.entries.has('ByteRange') && !nameIs(value.entries.get('SubFilter'), 'ETSI.RFC3161') && !nameIs(value.entries.get('Type'), 'DocTimeStamp')) {
        return r === revisions.length - 1 ? null : { revisions, signed: r, history };
      }
    }
  }
  return null;
}

/**
 * Checks the revisions after `signed` against the allow-list. Returns what they added, or throws
 * nothing: `{ problem }` names the first revision refused and why.
 */
export function checkLaterRevisions(
  pdf: Uint8Array,
  revisions: Revision[],
  signed: number,
  tsaAnchors: readonly X509Certificate[],
  text = textOf(pdf),
  history = new History(pdf, text, revisions),
): { later: LaterRevisions } | { problem: string; revision: number } {
  const later: LaterRevisions = { count: revisions.length - 1 - signed, dss: false, documentTimestamps: [] };
  /** Objects an accepted later revision added as validation material. */
  const ltvObjects = new Set<number>();
  for (let r = signed + 1; r < revisions.length; r++) {
    try {
      const added = checkRevision(history, r, ltvObjects, tsaAnchors);
      for (const num of added.ltv) ltvObjects.add(num);
      if (added.dss) later.dss = true;
      if (added.timestamp) later.documentTimestamps.push({ revision: r, ...added.timestamp });
    } catch (error) {
      if (error instanceof Refused || error instanceof Unsupported) return { problem: `revision ${r + 1}: ${error.message}`, revision: r };
      return { problem: `revision ${r + 1}: unreadable (${(error as Error).message})`, revision: r };
    }
  }
  return { later };
}

interface RevisionAdds {
  ltv: number[];
  dss: boolean;
  timestamp?: Omit<DocumentTimestamp, 'revision'>;
}

function checkRevision(history: History, r: number, ltvObjects: ReadonlySet<number>, tsaAnchors: readonly X509Certificate[]): RevisionAdds {
  const revision = history.revisions[r]!;
  const previous = history.revisions[r - 1]!;
  const text = history.text;
  if (revision.entries.size > REVISION_LIMITS.objectsPerRevision) refuse(`more than ${REVISION_LIMITS.objectsPerRevision} objects`);

  // The trailer: same catalog and information dictionary, nothing encrypted, linked to the previous section.
  const t = revision.trailer.entries;
  const p = previous.trailer.entries;
  if (!same(t.get('Root'), p.get('Root'))) refuse('the trailer names another catalog');
  if (!same(t.get('Info'), p.get('Info'))) refuse('the trailer names another document information dictionary');
  if (t.has('Encrypt')) refuse('the update encrypts the document');
  if (t.get('Prev') !== previous.xrefAt) refuse('the update does not follow the previous revision');

  // Each object listed lies in the revision's body, and the body holds nothing else.
  const defined = new Map<number, Parsed>();
  const byOffset = new Map<number, number>();
  for (const [num, entry] of revision.entries) {
    if (entry.free) {
      if (num === 0) continue;
      refuse(`frees object ${num}`);
    }
    if (entry.offset < revision.start || entry.offset >= revision.xrefAt) refuse(`object ${num} lies outside its revision`);
    byOffset.set(entry.offset, num);
  }
  const lexer = new PdfLexer(text);
  lexer.budget = history.budget;
  lexer.pos = revision.start;
  for (;;) {
    lexer.skipWhite();
    if (lexer.pos >= revision.xrefAt) break;
    const num = byOffset.get(lexer.pos);
    if (num === undefined) refuse(`bytes at ${lexer.pos} that are not an object its section lists`);
    const parsed = history.object(num!, r)!;
    defined.set(num!, parsed);
    lexer.pos = parsed.end;
  }
  if (defined.size !== byOffset.size) refuse('its section lists objects its body does not hold');

  const existed = (num: number) => history.definedIn(num, r - 1) >= 0;
  const reached = new Map<number, string>();
  const resolveNew = (value: Value | undefined) => history.resolve(value, r);
  const resolveOld = (value: Value | undefined) => history.resolve(value, r - 1);

  // The catalog: every entry as before, except /DSS and /AcroForm.
  const rootRef = t.get('Root');
  if (!isRef(rootRef)) refuse('trailer without /Root');
  const catalog = resolveNew(rootRef);
  const oldCatalog = resolveOld(rootRef);
  if (!isDict(catalog) || !isDict(oldCatalog)) refuse('the catalog is not a dictionary');
  const cat = catalog as Dict;
  const oldCat = oldCatalog as Dict;
  for (const key of new Set([...cat.entries.keys(), ...oldCat.entries.keys()])) {
    if (key === 'DSS' || key === 'AcroForm') continue;
    if (!same(cat.entries.get(key), oldCat.entries.get(key))) refuse(`the catalog's /${key} changed`);
  }
  if (defined.has((rootRef as Ref).num)) reached.set((rootRef as Ref).num, 'catalog');

  // /AcroForm: as before, but signature fields appended to /Fields and /SigFlags.
  const newFields = checkAcroForm(history, r, cat.entries.get('AcroForm'), oldCat.entries.get('AcroForm'), defined, reached);

  // Each new field is a document timestamp's: a hidden widget and its /DocTimeStamp dictionary.
  let timestamp: RevisionAdds['timestamp'];
  const widgets = new Set<number>();
  for (const field of newFields) {
    if (!isRef(field) || !defined.has(field.num) || existed(field.num)) refuse('a field added to the form is not a new object of the update');
    const f = (field as Ref).num;
    reached.set(f, 'signature field');
    widgets.add(f);
    const dict = defined.get(f)!.value;
    if (!isDict(dict)) refuse(`field ${f} is not a dictionary`);
    checkTimestampField(dict as Dict, f);
    const sigRef = (dict as Dict).entries.get('V');
    if (!isRef(sigRef) || !defined.has(sigRef.num) || existed(sigRef.num)) refuse(`field ${f}'s value is not a new object of the update`);
    if (timestamp) refuse('more than one document timestamp in one revision');
    reached.set((sigRef as Ref).num, 'document timestamp');
    timestamp = checkDocumentTimestamp(history, revision, defined.get((sigRef as Ref).num)!, tsaAnchors);
  }

  // /DSS: the validation data, new or already added by an accepted later revision.
  const ltv: number[] = [];
  const dssValue = cat.entries.get('DSS');
  if (dssValue !== undefined) {
    const mark = (value: Value | undefined, role: string) => {
      if (isRef(value)) {
        if (defined.has(value.num)) {
          if (existed(value.num) && !ltvObjects.has(value.num)) refuse(`the DSS points at object ${value.num}, redefined, which is not validation data`);
          reached.set(value.num, role);
          ltv.push(value.num);
        }
        return resolveNew(value);
      }
      return value;
    };
    checkDss(mark(dssValue, 'DSS'), mark);
  }

  // Pages: a page may gain only the new widgets in /Annots.
  for (const [num, parsed] of defined) {
    if (reached.has(num) || !existed(num)) continue;
    const old = history.object(num, r - 1)!.value;
    if (isDict(old) && nameIs(old.entries.get('Type'), 'Page') && isDict(parsed.value)) {
      checkPageAnnots(old, parsed.value, widgets, num);
      reached.set(num, 'page');
    }
  }

  // Everything the revision defines must have been accounted for.
  for (const num of defined.keys()) {
    if (reached.has(num)) continue;
    if (existed(num)) refuse(`redefines object ${num} of an earlier revision`);
    refuse(`adds object ${num}, which is neither validation data nor a document timestamp`);
  }
  return { ltv, dss: dssValue !== undefined && ltv.length > 0, ...(timestamp ? { timestamp } : {}) };
}

function checkAcroForm(history: History, r: number, value: Value | undefined, oldValue: Value | undefined, defined: Map<number, Parsed>, reached: Map<number, string>): Value[] {
  if (value === undefined && oldValue === undefined) return [];
  if (value === undefined) refuse('the form was removed');
  // An indirect AcroForm keeps its object (it may be redefined); a direct one stays direct.
  if (isRef(value) || isRef(oldValue)) {
    if (oldValue !== undefined && !same(value, oldValue)) refuse('the catalog points at another form');
    if (isRef(value) && defined.has(value.num)) {
      if (oldValue === undefined && history.definedIn(value.num, r - 1) >= 0) refuse('the new form is an object of an earlier revision');
      reached.set(value.num, 'form');
    }
  }
  const form = history.resolve(value, r);
  const oldForm = oldValue === undefined ? undefined : history.resolve(oldValue, r - 1);
  if (!isDict(form) || (oldForm !== undefined && !isDict(oldForm))) refuse('the form is not a dictionary');
  const f = form as Dict;
  const o = oldForm as Dict | undefined;
  for (const key of new Set([...f.entries.keys(), ...(o ? o.entries.keys() : [])])) {
    if (key === 'Fields' || key === 'SigFlags') continue;
    if (!same(f.entries.get(key), o?.entries.get(key))) refuse(`the form's /${key} changed`);
  }
  const sigFlags = f.entries.get('SigFlags');
  if (sigFlags !== undefined && (typeof sigFlags !== 'number' || !Number.isInteger(sigFlags))) refuse('bad /SigFlags');
  const fieldsValue = f.entries.get('Fields');
  const oldFieldsValue = o?.entries.get('Fields');
  if (isRef(fieldsValue) || isRef(oldFieldsValue)) {
    if (oldFieldsValue !== undefined && !same(fieldsValue, oldFieldsValue)) refuse("the form's /Fields is another array");
    if (isRef(fieldsValue) && defined.has(fieldsValue.num)) reached.set(fieldsValue.num, 'form fields');
  }
  const fields = history.resolve(fieldsValue, r);
  const oldFields = oldFieldsValue === undefined ? [] : history.resolve(oldFieldsValue, r - 1);
  if (!Array.isArray(fields) || !Array.isArray(oldFields)) refuse('/Fields is not an array');
  const now = fields as Value[];
  const before = oldFields as Value[];
  if (now.length > REVISION_LIMITS.arrayItems) refuse('too many form fields');
  if (now.length < before.length || !before.every((v, i) => same(v, now[i]))) refuse('form fields were removed or replaced');
  return now.slice(before.length);
}

const FIELD_KEYS = new Set(['Type', 'Subtype', 'FT', 'T', 'TU', 'F', 'Ff', 'Rect', 'P', 'V']);
const TIMESTAMP_KEYS = new Set(['Type', 'Filter', 'SubFilter', 'ByteRange', 'Contents', 'M', 'Name', 'Reason', 'Location', 'ContactInfo', 'Prop_Build']);

function checkTimestampField(field: Dict, num: number): void {
  for (const key of field.entries.keys()) if (!FIELD_KEYS.has(key)) refuse(`signature field ${num} has /${key}`);
  if (!nameIs(field.entries.get('FT'), 'Sig')) refuse(`field ${num} is not a signature field`);
  const type = field.entries.get('Type');
  const subtype = field.entries.get('Subtype');
  if (type !== undefined && !nameIs(type, 'Annot')) refuse(`field ${num} has an unexpected /Type`);
  if (subtype !== undefined && !nameIs(subtype, 'Widget')) refuse(`field ${num} is an annotation other than a widget`);
  const rect = field.entries.get('Rect');
  if (rect !== undefined) {
    if (!Array.isArray(rect) || rect.length !== 4 || !rect.every((n) => typeof n === 'number')) refuse(`field ${num} has a bad /Rect`);
    const [x1, y1, x2, y2] = rect as number[];
    if (x1 !== x2 && y1 !== y2) refuse(`field ${num}'s widget is visible (its /Rect has an area)`);
  }
}

function checkDocumentTimestamp(history: History, revision: Revision, parsed: Parsed, tsaAnchors: readonly X509Certificate[]): Omit<DocumentTimestamp, 'revision'> {
  const dict = parsed.value;
  if (!isDict(dict)) refuse('the document timestamp is not a dictionary');
  const d = dict as Dict;
  for (const key of d.entries.keys()) if (!TIMESTAMP_KEYS.has(key)) refuse(`the document timestamp has /${key}`);
  if (!nameIs(d.entries.get('Type'), 'DocTimeStamp') || !nameIs(d.entries.get('SubFilter'), 'ETSI.RFC3161')) refuse('a signature added after signing is not a document timestamp');
  const range = d.entries.get('ByteRange');
  if (!Array.isArray(range) || range.length !== 4 || !range.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)) {
    refuse("the document timestamp's /ByteRange is malformed");
  }
  const [a, b, c, len] = range as number[];
  if (a !== 0 || c! + len! !== revision.end) refuse("the document timestamp's /ByteRange does not cover exactly its revision");
  // The gap is exactly this dictionary's /Contents string: inside the object, <hex> and nothing else.
  const pdf = history.pdf;
  if (b! < parsed.offset || c! > parsed.end || pdf[b!] !== 0x3c || pdf[c! - 1] !== 0x3e) refuse("the document timestamp's /ByteRange does not exclude exactly its /Contents");
  const hex = history.text.slice(b! + 1, c! - 1);
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) refuse("the document timestamp's /Contents is not a hex string");
  const contents = d.entries.get('Contents');
  const gapBytes = Buffer.from(hex, 'hex');
  if (!isString(contents) || !gapBytes.equals(Buffer.from(contents.bytes))) refuse("the document timestamp's /ByteRange does not exclude exactly its /Contents");
  let token: Uint8Array;
  try {
    token = gapBytes.subarray(0, readNode(gapBytes, 0).end);
  } catch {
    return refuse("the document timestamp's token is unreadable");
  }
  const check: TimestampCheck = checkTimestampToken(token, sha256Of(pdf.subarray(0, b!), pdf.subarray(c!, c! + len!)), tsaAnchors);
  if (!check.ok) refuse(`document timestamp: ${check.problem}`);
  return { ...(check.genTime ? { genTime: check.genTime.toISOString() } : {}), ...(check.tsaSubject ? { tsa: check.tsaSubject } : {}), trusted: check.trusted };
}

const DSS_KEYS = new Set(['Type', 'VRI', 'Certs', 'OCSPs', 'CRLs']);
const VRI_ENTRY_KEYS = new Set(['Type', 'Cert', 'CRL', 'OCSP', 'TU', 'TS']);

function checkDss(value: Value | undefined, mark: (value: Value | undefined, role: string) => Value | undefined): void {
  if (!isDict(value)) refuse('/DSS is not a dictionary');
  const dss = value as Dict;
  for (const key of dss.entries.keys()) if (!DSS_KEYS.has(key)) refuse(`/DSS has /${key}`);
  if (dss.entries.has('Type') && !nameIs(dss.entries.get('Type'), 'DSS')) refuse('/DSS has an unexpected /Type');
  const streams = (value: Value | undefined, where: string) => {
    const list = mark(value, `${where} array`);
    if (list === undefined) return;
    if (!Array.isArray(list) || list.length > REVISION_LIMITS.arrayItems) refuse(`${where} is not an array of streams`);
    for (const item of list as Value[]) {
      if (!isRef(item)) refuse(`${where} holds something other than a stream`);
      checkDataStream(mark(item, 'validation data'), where);
    }
  };
  for (const key of ['Certs', 'OCSPs', 'CRLs']) streams(dss.entries.get(key), `/DSS /${key}`);
  const vri = mark(dss.entries.get('VRI'), 'VRI');
  if (vri === undefined) return;
  if (!isDict(vri) || vri.entries.size > REVISION_LIMITS.arrayItems) refuse('/VRI is not a dictionary');
  for (const [key, entryValue] of (vri as Dict).entries) {
    if (!/^[0-9A-Fa-f]{40}$/.test(key)) refuse(`/VRI key /${key.slice(0, 50)} is not a signature hash`);
    const entry = mark(entryValue, 'VRI entry');
    if (!isDict(entry)) refuse(`/VRI /${key} is not a dictionary`);
    for (const k of (entry as Dict).entries.keys()) if (!VRI_ENTRY_KEYS.has(k)) refuse(`/VRI /${key} has /${k}`);
    const e = (entry as Dict).entries;
    if (e.has('Type') && !nameIs(e.get('Type'), 'VRI')) refuse(`/VRI /${key} has an unexpected /Type`);
    for (const k of ['Cert', 'CRL', 'OCSP']) streams(e.get(k), `/VRI /${k}`);
    if (e.has('TU') && !isString(e.get('TU'))) refuse('/VRI /TU is not a date');
    if (e.has('TS')) {
      if (!isRef(e.get('TS'))) refuse('/VRI /TS is not a stream');
      checkDataStream(mark(e.get('TS'), 'validation data'), '/VRI /TS');
    }
  }
}

/** A stream of validation data: a certificate, CRL, OCSP answer or token; nothing a viewer draws. */
function checkDataStream(value: Value | undefined, where: string): void {
  if (!isDict(value) || value.streamAt === undefined) refuse(`${where} holds something other than a stream`);
  const d = value as Dict;
  for (const key of d.entries.keys()) if (key !== 'Length' && key !== 'Filter') refuse(`a stream of ${where} has /${key}`);
  const filter = d.entries.get('Filter');
  if (filter !== undefined && !nameIs(filter, 'FlateDecode')) refuse(`a stream of ${where} has a filter other than /FlateDecode`);
}

function checkPageAnnots(old: Dict, now: Dict, widgets: ReadonlySet<number>, num: number): void {
  for (const key of new Set([...old.entries.keys(), ...now.entries.keys()])) {
    if (key === 'Annots') continue;
    if (!same(old.entries.get(key), now.entries.get(key))) refuse(`page ${num}'s /${key} changed`);
  }
  const before = old.entries.get('Annots') ?? [];
  const after = now.entries.get('Annots') ?? [];
  if (!Array.isArray(before) || !Array.isArray(after)) refuse(`page ${num}'s /Annots is not a direct array`);
  const b = before as Value[];
  const a = after as Value[];
  if (a.length < b.length || !b.every((v, i) => same(v, a[i]))) refuse(`page ${num}'s annotations were removed or replaced`);
  for (const added of a.slice(b.length)) {
    if (!isRef(added) || !widgets.has(added.num)) refuse(`page ${num} gains an annotation that is not a document timestamp's widget`);
  }
}

// -------------------------------------------------------------------------------------------
// The signature of a PDF, with its later revisions
// -------------------------------------------------------------------------------------------

export interface PdfSignatureAnalysis extends PdfSignatureCheck {
  /**
   * The bytes the document signature covers: the whole file, or, when only accepted validation
   * revisions follow it, the file up to the signed revision's end (what to read the diploma from).
   */
  signedBytes: Uint8Array;
  /** The accepted revisions after the signed one (coversWholeFile is then true). */
  later?: LaterRevisions;
}

/**
 * The document signature's check (@sceau/pdf's verifyPdfSignature) on the revision it signed, and
 * the revisions after it against the allow-list. A PDF with nothing after its signature is checked
 * exactly as before; one whose later revisions are not all accepted has coversWholeFile false and
 * the first refusal as its problem.
 */
export function analysePdfSignature(pdf: Uint8Array, tsaAnchors: readonly X509Certificate[]): PdfSignatureAnalysis {
  const text = textOf(pdf);
  const found = findSignedRevision(pdf, text);
  if (!found) {
    const whole = verifyPdfSignature(pdf);
    // The ministry signs the rendered document (one revision) with one update: a signature in a
    // later update signs changes made to the document before it, which the ministry never makes.
    const revisions = whole.intact && whole.coversWholeFile ? readRevisions(pdf, text) : null;
    if (revisions && revisions.length > 2) {
      return { ...whole, coversWholeFile: false, problem: `the signature (revision ${revisions.length}) covers updates made to the document before it`, signedBytes: pdf };
    }
    return { ...whole, signedBytes: pdf };
  }
  const prefix = pdf.subarray(0, found.revisions[found.signed]!.end);
  const signature = verifyPdfSignature(prefix);
  if (!signature.intact || !signature.coversWholeFile) return { ...signature, coversWholeFile: false, signedBytes: pdf };
  const checked = checkLaterRevisions(pdf, found.revisions, found.signed, tsaAnchors, text, found.history);
  if ('problem' in checked) return { ...signature, coversWholeFile: false, problem: checked.problem, signedBytes: pdf };
  return { ...signature, coversWholeFile: true, later: checked.later, signedBytes: prefix };
}
