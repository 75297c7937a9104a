import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Services } from './services.ts';

/** What every module receives: the database, the configuration and the services. */
export interface AppContext {
  db: Db;
  config: Config;
  services: Services;
}
