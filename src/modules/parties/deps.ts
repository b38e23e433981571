// What party operations need from the running service. Services (src/http/types.ts) fits it.
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';

export interface PartyDeps {
  db: Db;
  clock: Clock;
}

/** Onboarding links also hand out URLs of this service. */
export interface OnboardingDeps extends PartyDeps {
  config: Pick<Config, 'publicUrl'>;
}
