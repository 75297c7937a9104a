/**
 * Starts the platform the way the README does (`npm run serve`, after `npm run build`) on a fresh
 * embedded database: DATA_DIR is emptied before the start and removed after the server has stopped.
 * Playwright starts this as its web server and stops it with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.includes(`${path.sep}e2e${path.sep}`)) throw new Error(`refusing to empty DATA_DIR=${dataDir}`);
rmSync(dataDir, { recursive: true, force: true });

const root = path.resolve(import.meta.dirname, '..');
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], { cwd: root, stdio: 'inherit', env: process.env });

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
