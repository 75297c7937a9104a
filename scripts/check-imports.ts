/**
 * Import layering that Biome's noRestrictedImports cannot say (ADR 0124); biome.jsonc holds the rest.
 * - web: a feature imports another feature only through that feature's `*-api.ts` files (its server
 *   calls and query hooks), and never from app/ (the app composes the features, not the reverse);
 * - web: no API path written by hand: calls go through `api` (lib/api.ts) with a definition from
 *   `@sceau/contracts` (ADR 0125); only lib/http.ts and lib/api.ts use the raw client; the
 *   definitions reach the bundle through lib/endpoints.ts (method and path only, not their schemas);
 * - api: no cycle between modules (apps/api/src/modules/<name>), counting value and type imports alike.
 * Dependency-free: reads the import specifiers with a regular expression. Exit 1 on any finding.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const webSrc = join(root, 'apps/web/src');
const apiModules = join(root, 'apps/api/src/modules');

/** A feature's files other features may import. */
const PUBLIC_FEATURE_FILE = /-api(\.tsx?)?$/;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  return [...text.matchAll(SPECIFIER)].map((match) => match[1]!);
}

/** The file an import points at, for the project's own files (`@/` in the web app, or relative); null for packages. */
function target(file: string, specifier: string, alias?: string): string | null {
  if (alias && specifier.startsWith('@/')) return join(alias, specifier.slice(2));
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  return null;
}

const findings: string[] = [];
const show = (file: string) => relative(root, file);

// web: features → app, and one feature into another's internals.
const featuresDir = join(webSrc, 'features');
for (const file of sourceFiles(featuresDir)) {
  const feature = relative(featuresDir, file).split(sep)[0];
  for (const specifier of importsOf(file)) {
    const to = target(file, specifier, webSrc);
    if (!to) continue;
    const inWeb = relative(webSrc, to).split(sep);
    if (inWeb[0] === 'app') findings.push(`${show(file)}: imports '${specifier}': a feature never imports app/ (the app composes the features)`);
    if (inWeb[0] === 'features' && inWeb[1] !== feature && !PUBLIC_FEATURE_FILE.test(to)) {
      findings.push(`${show(file)}: imports '${specifier}': another feature is reached only through its *-api.ts files; move shared code to lib/ or components/`);
    }
  }
}

// web: API calls only through the endpoint definitions.
const RAW_CLIENT = new Set(['lib/http.ts', 'lib/api.ts', 'lib/endpoints.ts'].map((file) => join(webSrc, file)));
const RAW_CALL = /\bhttp\.(?:get|post|put|patch|delete|request|download|getBlob)\s*[<(]/;
const API_PATH = /['"`]\/api\//;
for (const file of sourceFiles(webSrc)) {
  if (/\.test\.tsx?$/.test(file) || RAW_CLIENT.has(file)) continue;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (/^\s*(?:\/\/|\*)/.test(line)) return;
    if (/^import\s*\{[^}]*(?<!type\s)\bendpoints\b[^}]*\}\s*from\s*'@sceau\/contracts'/.test(line)) {
      findings.push(
        `${show(file)}:${index + 1}: imports the endpoint definitions (and all their zod schemas) into the bundle; import { endpoints } from '@/lib/endpoints' (ADR 0125)`,
      );
    }
    if (RAW_CALL.test(line) || API_PATH.test(line)) {
      findings.push(`${show(file)}:${index + 1}: an API path written by hand; call \`api\` with its definition in @sceau/contracts (ADR 0125)`);
    }
  });
}

// api: the graph of modules, then its cycles.
const moduleOf = (file: string): string | null => {
  const path = relative(apiModules, file);
  return path.startsWith('..') ? null : (path.split(sep)[0] ?? null);
};
const edges = new Map<string, Map<string, string>>(); // module → module it imports → one file showing it
for (const file of sourceFiles(apiModules)) {
  if (/\.test\.ts$/.test(file)) continue;
  const from = moduleOf(file)!;
  for (const specifier of importsOf(file)) {
    const to = target(file, specifier);
    const module = to && moduleOf(to);
    if (!module || module === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from)!.has(module)) edges.get(from)!.set(module, show(file));
  }
}
const reported = new Set<string>();
function walk(module: string, path: string[]): void {
  for (const next of edges.get(module)?.keys() ?? []) {
    const at = path.indexOf(next);
    if (at >= 0) {
      const cycle = [...path.slice(at), next];
      const key = [...cycle.slice(0, -1)].sort().join(',');
      if (reported.has(key)) continue;
      reported.add(key);
      const via = cycle.slice(0, -1).map((m, i) => edges.get(m)!.get(cycle[i + 1]!)!);
      findings.push(`api modules import each other in a cycle: ${cycle.join(' → ')} (${via.join(', ')})`);
    } else walk(next, [...path, next]);
  }
}
for (const module of edges.keys()) walk(module, [module]);

if (findings.length > 0) {
  console.error(findings.join('\n'));
  console.error(`\n${findings.length} import layering finding(s); the rules are in docs/decisions/0124-lint-format-and-import-layering.md`);
  process.exit(1);
}
console.log('Import layering: no finding.');
