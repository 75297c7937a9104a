/**
 * Schools, centres and options found the way secretaries write them in a list (ADR 0139): by code
 * or by name, whatever the accents, case, punctuation and spacing ("INSTITUT ST JOSEPH",
 * "institut saint-joseph" and "Institut Saint-Joseph" are one name; "Kananga I" is "Kananga 1"),
 * options also by their long name ("Scientifique Biologie-Chimie"). A name several places bear is
 * not guessed: the answer names them. An unknown value gets the closest names as suggestions, those
 * of the list's province first. Pure: the caller loads the rows.
 */
import { distance } from 'fastest-levenshtein';

export interface Place {
  id: number;
  code: string;
  name: string;
  /** Where the place lies (schools and centres); options are national. */
  educProvinceId?: number;
}

export type Match<T extends Place> = { found: T } | { ambiguous: T[] } | { unknown: true; suggestions: T[] };

/** Abbreviations met in school names, written out. */
const WORDS: Record<string, string> = { st: 'saint', ste: 'sainte', sts: 'saints', stes: 'saintes', inst: 'institut', coll: 'college', cs: 'complexe scolaire' };
/** Roman numerals as names number places ("Kananga I", "Lycée Bosangani II"). */
const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iv: '4', v: '5', vi: '6', vii: '7', viii: '8', ix: '9', x: '10' };

/** The words of a value: no accents, no case, letters and digits only. */
function words(value: string): string[] {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A name as compared: its words, abbreviations written out, numerals as digits, joined without spaces. */
export function nameKey(value: string): string {
  return nameWords(value).join('');
}

function nameWords(value: string): string[] {
  return words(value)
    .map((w) => ROMAN[w] ?? WORDS[w] ?? w)
    .join(' ')
    .split(' ');
}

/** Each typed word begins a word of the name, in order ("Math Physique" for "Mathématique-Physique"). */
function abbreviates(typed: string[], name: string[]): boolean {
  let at = 0;
  for (const word of typed) {
    while (at < name.length && !name[at]!.startsWith(word)) at++;
    if (at === name.length) return false;
    at++;
  }
  return typed.length > 0;
}

/** A code as compared: "KIN-LUK-C1-E1", "kin luk c1 e1" and "KINLUKC1E1" are one. */
export function codeKey(value: string): string {
  return words(value).join('');
}

/** At most this many suggestions, each at most this far (edits per character of the longer key). */
const SUGGESTIONS = 3;
const MAX_DISTANCE_RATIO = 0.34;

interface Entry<T> {
  place: T;
  /** Its names as compared, and as words (for shortened words). */
  keys: string[];
  words: string[][];
}

export class ReferenceMatcher<T extends Place> {
  private readonly byCode = new Map<string, T>();
  private readonly byName = new Map<string, T[]>();
  private readonly memo = new Map<string, Match<T>>();
  /** Every place, and the same by province (suggestions look there first). */
  private readonly entries: Entry<T>[] = [];
  private readonly byProvince = new Map<number, Entry<T>[]>();

  /** `otherNames` gives more names a place answers to (an option's "section name"). */
  constructor(places: readonly T[], otherNames: (place: T) => string[] = () => []) {
    for (const place of places) {
      this.byCode.set(codeKey(place.code), place);
      const words = [place.name, ...otherNames(place)].map(nameWords);
      const keys = [...new Set(words.map((w) => w.join('')).filter(Boolean))];
      for (const key of keys) {
        const list = this.byName.get(key);
        if (list) list.push(place);
        else this.byName.set(key, [place]);
      }
      const entry = { place, keys, words };
      this.entries.push(entry);
      if (place.educProvinceId !== undefined) {
        const list = this.byProvince.get(place.educProvinceId);
        if (list) list.push(entry);
        else this.byProvince.set(place.educProvinceId, [entry]);
      }
    }
  }

  /**
   * The place `typed` names. A code wins over a name. Among places of one name, those of `provinceId`
   * are preferred: one there is the answer, several are ambiguous; none there but one elsewhere is
   * that one (the caller says it lies outside the province).
   */
  match(typed: string, provinceId?: number): Match<T> {
    // A list names the same few places on every row: each value is looked up once.
    const memoKey = `${provinceId ?? ''}\u0000${typed}`;
    const known = this.memo.get(memoKey);
    if (known) return known;
    const answer = this.lookup(typed, provinceId);
    if (this.memo.size < 10_000) this.memo.set(memoKey, answer);
    return answer;
  }

  private lookup(typed: string, provinceId?: number): Match<T> {
    const code = codeKey(typed);
    const byCode = code ? this.byCode.get(code) : undefined;
    if (byCode) return { found: byCode };
    const key = nameKey(typed);
    const named = key ? (this.byName.get(key) ?? []) : [];
    const here = provinceId === undefined ? named : named.filter((p) => p.educProvinceId === undefined || p.educProvinceId === provinceId);
    const pool = here.length ? here : named;
    if (pool.length === 1) return { found: pool[0]! };
    if (pool.length > 1) return { ambiguous: pool };
    return { unknown: true, suggestions: this.suggest(typed, provinceId) };
  }

  /**
   * The closest places by name, nearest first: those of `provinceId` (a list is of one province; this
   * also bounds the work to a province's schools), or every place for national ones (options).
   */
  suggest(typed: string, provinceId?: number): T[] {
    const typedWords = nameWords(typed);
    const key = typedWords.join('');
    if (!key) return [];
    const local = provinceId === undefined ? undefined : this.byProvince.get(provinceId);
    return closest(local ?? this.entries, key, typedWords);
  }
}

function closest<T extends Place>(entries: readonly Entry<T>[], key: string, typedWords: string[]): T[] {
  const scored: { place: T; score: number }[] = [];
  for (const { place, keys, words } of entries) {
    let best = Number.POSITIVE_INFINITY;
    for (const k of keys) {
      const allowed = Math.max(2, Math.ceil(Math.max(k.length, key.length) * MAX_DISTANCE_RATIO));
      // A name written in part ("Saint Joseph" for "Institut Saint-Joseph") is close.
      if (k.includes(key) || key.includes(k)) best = Math.min(best, Math.abs(k.length - key.length) * 0.1);
      // The distance is at least the difference of lengths: most names are ruled out without computing it.
      else if (Math.abs(k.length - key.length) <= allowed) {
        const d = distance(key, k);
        if (d <= allowed) best = Math.min(best, d);
      }
    }
    // Words shortened ("Math-Physique", "Inst Tech Kananga").
    if (best === Number.POSITIVE_INFINITY && words.some((w) => abbreviates(typedWords, w))) best = 3;
    if (best !== Number.POSITIVE_INFINITY) scored.push({ place, score: best });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.place.name.localeCompare(b.place.name, 'fr'))
    .slice(0, SUGGESTIONS)
    .map((s) => s.place);
}

/** How a place is named in a message: "Institut Saint-Joseph (KIN-LUK-C1-E1)". */
export function describePlace(place: Place): string {
  return `${place.name} (${place.code})`;
}
