import { rm } from 'node:fs/promises';
import path from 'node:path';

// Each run's screenshots replace the last run's. (The database is made fresh by serve-fresh.ts.)
export default async function globalSetup() {
  await rm(path.join(import.meta.dirname, 'artifacts', 'screenshots'), { recursive: true, force: true });
}
