import { describe, expect, it } from 'vitest';
import { resources } from './index.ts';

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) for (const [kk, vv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
  return out;
}

function interpolations(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

describe('translation catalogues', () => {
  for (const ns of Object.keys(resources.fr) as (keyof typeof resources.fr)[]) {
    const fr = flatten(resources.fr[ns]);
    const en = flatten(resources.en[ns]);

    it(`${ns}: every French key exists in English`, () => {
      expect([...fr.keys()].filter((k) => !en.has(k))).toEqual([]);
    });
    it(`${ns}: every English key exists in French`, () => {
      expect([...en.keys()].filter((k) => !fr.has(k))).toEqual([]);
    });
    it(`${ns}: no empty text and the same placeholders in both languages`, () => {
      for (const [key, text] of fr) {
        expect(text.trim(), `fr ${ns}:${key}`).not.toBe('');
        const other = en.get(key);
        if (other === undefined) continue;
        expect(other.trim(), `en ${ns}:${key}`).not.toBe('');
        expect(interpolations(other), `${ns}:${key}`).toEqual(interpolations(text));
      }
    });
  }
});
