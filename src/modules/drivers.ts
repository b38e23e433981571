// The drivers of outside services, by name: payment processors (by the provider of a mode's
// processor connection) and, once media arrives, file storage. Modules ask here for the driver of
// a mode; a new processor or store is one entry.
import type { Queryable } from '../db/db.js';
import { errors } from '../errors.js';
import type { Scope } from '../scope.js';
import type { Provider } from './marketplaces/schemas.js';
import { connectedProvider } from './marketplaces/processor-connection.js';
import type { ProcessorDriver } from './processors/driver.js';
import { simulatedProcessor } from './processors/simulated.js';
import { stripeProcessor } from './processors/stripe.js';

export const processorDrivers: Readonly<Record<Provider, ProcessorDriver>> = {
  simulated: simulatedProcessor,
  stripe: stripeProcessor,
};

/** The driver of the mode's processor connection; 403 processor_not_connected without one. */
export async function processorFor(q: Queryable, scope: Scope): Promise<ProcessorDriver> {
  const provider = await connectedProvider(q, scope);
  if (provider === null) {
    throw errors.forbidden('processor_not_connected', 'This mode has no payment processor connection; connect one in the dashboard first.');
  }
  return processorDrivers[provider];
}

/**
 * Where media files will be kept (local disk, S3-compatible storage). Nothing stores files yet:
 * the media issue adds the drivers, their registry here, and the setting that picks one.
 */
export interface StorageDriver {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}
