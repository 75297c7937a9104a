/**
 * `npm run lint:openapi`: builds the API in-process (no database, no network), writes its OpenAPI
 * document to a temporary file and lints it with Redocly against `redocly.yaml`. Exits with
 * Redocly's status: non-zero on any error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { openApiDocument } from '../src/plugins/openapi-document.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = await mkdtemp(path.join(os.tmpdir(), 'sceau-openapi-lint-'));
let status = 1;
try {
  const file = path.join(dir, 'openapi.json');
  await writeFile(file, JSON.stringify((await openApiDocument()).document, null, 2));
  // The CLI's own entry point, run by this Node: no npx look-up, no download.
  const cli = createRequire(path.join(root, 'package.json')).resolve('@redocly/cli/bin/cli.js');
  const result = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml')], {
    stdio: 'inherit',
    cwd: root,
    // Offline and quiet: no usage report, no check for a newer version.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) console.error(result.error);
  status = result.status ?? 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(status);
