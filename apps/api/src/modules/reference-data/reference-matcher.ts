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

export class ReferenceMatcher<T extends Place> {
  private readonly byCode = new Map<string, T>();
  private readonly byName = new Map<string, T[]>();
  private readonly memo = new Map<string, Match<T>>();
  private readonly keys: { place: T; keys: string[]; words: string[][] }[] = [];

  /** `otherNames` gives more names a place answers to (an option's "section name"). */
  constructor(places: readonly T[], otherNames: (place: T) => string[] = () => []) {
    for (const place of places) {
      this.byCode.set(codeKey(place.code), place);
      const names = [place.name, ...otherNames(place)];
      const keys = [...new Set(names.map(nameKey).filter(Boolean))];
      for (const key of keys) {
        const list = this.byName.get(key) ?? [];
        list.push(place);
        this.byName.set(key, list);
      }
      this.keys.push({ place, keys, words: names.map(nameWords) });
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

  /** The closest places by name (in `provinceId` when it holds any close one), nearest first. */
  suggest(typed: string, provinceId?: number): T[] {
    const key = nameKey(typed);
    if (!key) return [];
    const typedWords = nameWords(typed);
    const scored: { place: T; score: number; here: boolean }[] = [];
    for (const { place, keys, words: nameWordLists } of this.keys) {
      let best = Number.POSITIVE_INFINITY;
      for (const k of keys) {
        // A name written in part ("Saint Joseph" for "Institut Saint-Joseph") is close.
        const d = k.includes(key) || key.includes(k) ? Math.abs(k.length - key.length) * 0.1 : distance(key, k);
        if (d <= Math.max(2, Math.ceil(Math.max(k.length, key.length) * MAX_DISTANCE_RATIO)) && d < best) best = d;
      }
      // Words shortened ("Math-Physique", "Inst Tech Kananga").
      if (best === Number.POSITIVE_INFINITY && nameWordLists.some((w) => abbreviates(typedWords, w))) best = 3;
      if (best !== Number.POSITIVE_INFINITY)
        scored.push({ place, score: best, here: provinceId === undefined || place.educProvinceId === undefined || place.educProvinceId === provinceId });
    }
    const anyHere = scored.some((s) => s.here);
    return scored
      .filter((s) => s.here || !anyHere)
      .sort((a, b) => a.score - b.score || a.place.name.localeCompare(b.place.name, 'fr'))
      .slice(0, SUGGESTIONS)
      .map((s) => s.place);
  }
}

/** How a place is named in a message: "Institut Saint-Joseph (KIN-LUK-C1-E1)". */
export function describePlace(place: Place): string {
  return `${place.name} (${place.code})`;
}
