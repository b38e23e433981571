// What every operation, timer and job runs with: the database, the clock, the configuration, and
// the hooks the composition root (src/app/wiring.ts) assembled from the modules' manifests. The
// hooks are how a module reaches behaviour that another module owns without importing it (a
// party's erasure runs every participant) and how modules reach the adapters (processors,
// storage, email): no module imports src/adapters/ (test/architecture/imports.test.ts). A use
// case that crosses modules is a flow (src/flows/), not a hook. Every hook is required: a root
// that forgot one does not type-check.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { Background } from './engine.js';
import type { ErasureParticipant } from './erasure.js';
import type { EventCatalog } from './events.js';
import type { ModerationTargets } from './moderation.js';
import type { MailTransports } from './email.js';
import type { ProcessorDriver, ProcessorEvents, Provider, SimulatedProcessor } from './processor.js';
import type { StorageDriver } from './storage.js';

export interface Deps {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  readonly hooks: Hooks;
  /** This process's background machinery (wake-ups, the components' loops), built by the root. */
  readonly background: Background;
}

export interface Hooks {
  /** Everyone who keeps data about a seller or buyer, in the order erasure runs them. */
  readonly erasure: readonly ErasureParticipant[];
  /** Every event type the modules declare, with its entry, in the catalog's order. */
  readonly eventCatalog: EventCatalog;
  /** What trust and safety can flag and act on, by target type. */
  readonly moderationTargets: ModerationTargets;
  /** The processor driver of each provider. */
  readonly processors: Readonly<Record<Provider, ProcessorDriver>>;
  /** The simulated processor beside its driver: its books and accounts, for its test helpers and pages. */
  readonly simulated: SimulatedProcessor;
  /** Stripe's webhooks, verified and read into processor reports. */
  readonly stripeEvents: ProcessorEvents;
  /** File storage of this configuration (STORAGE: local disk or S3). */
  readonly storage: StorageDriver;
  /** The email transport of a configuration (SMTP_URL). */
  readonly mailTransport: MailTransports;
}
