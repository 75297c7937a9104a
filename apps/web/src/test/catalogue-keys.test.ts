import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resources } from '@sceau/i18n';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function lookup(catalogue: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), catalogue);
}

/** Literal keys used in the code: t('a.b'), keyMessage('a.b'), titleKey="a.b", messageKey / key: 'a.b' and 'web:a.b'. */
function usedKeys(): string[] {
  const keys = new Set<string>();
  const patterns = [
    /\bt\(\s*'([\w.:-]+)'/g,
    /\bkeyMessage\(\s*'([\w.:-]+)'/g,
    /(?:titleKey|descriptionKey)="([\w.]+)"/g,
    /\bkey: '([a-z]+\.[\w.]+)'/g,
    /translate\('web:([\w.]+)'\)/g,
    /'(guard\.[a-z]+)'/g,
    /(?:flashKey|labelKey|flash\.push\()\s*:?\s*'([a-z]+\.[\w.]+)'/g,
  ];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) keys.add(match[1]!);
  }
  return [...keys].filter((key) => key.includes('.')).sort();
}

describe('texts used by the web app', () => {
  const keys = usedKeys();

  it('finds the keys it checks', () => {
    expect(keys).toContain('login.title');
    expect(keys).toContain('guard.role');
    expect(keys).toContain('signatures.title');
    expect(keys).toContain('errors:field.file_required');
    expect(keys.length).toBeGreaterThan(100);
  });

  for (const lang of ['fr', 'en'] as const) {
    it(`exist in the ${lang} catalogue`, () => {
      const missing = keys.filter((key) => {
        const [namespace, path] = key.startsWith('errors:') ? (['errors', key.slice('errors:'.length)] as const) : (['web', key.replace(/^web:/, '')] as const);
        return typeof lookup(resources[lang][namespace], path) !== 'string';
      });
      expect(missing).toEqual([]);
    });
  }
});
