import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import type { DeclaredRoute } from './access.ts';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/client.ts';
import { createServices, type Identity, type Services } from '../services.ts';

/**
 * The API's OpenAPI document, from the app built in-process with no database, chain or network:
 * the pool is only created (pg connects on the first query, and none is made), and the
 * verification service and the identity are stand-ins so that their routes are registered and
 * documented (nothing calls them: no request is made).
 */
export async function openApiDocument(): Promise<{ document: Record<string, unknown>; declaredRoutes: DeclaredRoute[] }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sceau-openapi-'));
  // Nothing listens on port 1: a query made by mistake fails at once instead of reaching a real database.
  const db = createDb('postgres://openapi@127.0.0.1:1/none', 1);
  try {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '', DATA_DIR: dataDir });
    const verification = { closeParsers: async () => {} } as unknown as NonNullable<Services['verification']>;
    const identity = { keys: {}, chain: {} } as Identity;
    const app = await buildApp({ db, config, services: { ...createServices(db, config), verification, identity } });
    try {
      await app.ready();
      return { document: app.swagger() as unknown as Record<string, unknown>, declaredRoutes: app.declaredRoutes };
    } finally {
      await app.close();
    }
  } finally {
    await db.$client.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
