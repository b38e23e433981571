// The drivers of outside services, by name: payment processors (by the provider of a mode's
// processor connection) and file storage (by STORAGE: local disk or S3). Modules ask here for the driver of
// a mode; a new processor or store is one entry.
import type { Config } from '../config.js';
import type { Queryable } from '../db/db.js';
import { errors } from '../errors.js';
import type { Scope } from '../scope.js';
import type { Provider } from '../modules/marketplaces/schemas.js';
import { loadProcessorCredentials, type ProcessorCredentials } from '../modules/marketplaces/processor-connection.js';
import type { ProcessorDriver } from '../contracts/processor.js';
import { simulatedProcessor } from '../adapters/processors/simulated.js';
import { stripeProcessor } from '../adapters/processors/stripe.js';
import type { StorageDriver } from '../contracts/storage.js';
import { LocalStorage } from '../adapters/storage/local.js';
import { S3Storage } from '../adapters/storage/s3.js';

export const processorDrivers: Readonly<Record<Provider, ProcessorDriver>> = {
  simulated: simulatedProcessor,
  stripe: stripeProcessor,
};

export interface ConnectedProcessor {
  driver: ProcessorDriver;
  credentials: ProcessorCredentials;
}

/** The driver and credentials of the mode's processor connection; 403 processor_not_connected without one. */
export async function processorFor(q: Queryable, secretKey: Buffer, scope: Scope): Promise<ConnectedProcessor> {
  const credentials = await loadProcessorCredentials(q, secretKey, scope);
  if (credentials === null) {
    throw errors.forbidden('processor_not_connected', 'This mode has no payment processor connection; connect one in the dashboard first.');
  }
  return { driver: processorDrivers[credentials.provider], credentials };
}

/** The storage driver of this configuration (STORAGE): one per configuration, made on first use. */
export function storageFor(config: Config): StorageDriver {
  let driver = storageDrivers.get(config);
  if (!driver) {
    driver = config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalStorage(config);
    storageDrivers.set(config, driver);
  }
  return driver;
}

const storageDrivers = new WeakMap<Config, StorageDriver>();
