// What management operations need from the running service. Services (src/http/types.ts) fits it;
// the dashboard and first start can pass the same object.
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';

export interface ManageDeps {
  db: Db;
  clock: Clock;
  config: Config;
  /** Cached API-key contexts carry settings and billing state: changes to those clear the cache. */
  apiKeys: { invalidate(): void };
}
