import { rm } from 'node:fs/promises';
import path from 'node:path';

// The server has been stopped (SIGTERM, which stops its PostgreSQL); its data goes with it.
export default async function globalTeardown() {
  await rm(path.join(import.meta.dirname, '.data'), { recursive: true, force: true });
}
