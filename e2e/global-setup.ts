import { rm } from 'node:fs/promises';
import path from 'node:path';

// A fresh embedded database for every run: the server starts on an empty DATA_DIR.
// (Playwright starts the web server after this, so the folder is gone before the server opens it.)
export default async function globalSetup() {
  await rm(path.join(import.meta.dirname, '.data'), { recursive: true, force: true });
  await rm(path.join(import.meta.dirname, 'artifacts', 'screenshots'), { recursive: true, force: true });
}
