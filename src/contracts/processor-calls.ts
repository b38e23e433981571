// The context of a processor call, built the same way by every caller (the payments module's call
// job, the onboarding link, the reconciliation report): the mode's credentials, where the service
// and Stripe are reached, the job's abort signal, and the simulated processor's books of the mode
// (reached through the hooks, like the driver itself).
import type { Scope } from '../scope.js';
import type { Deps } from './deps.js';
import type { CallContext, ProcessorCredentials } from './processor.js';

export function processorCallContext(deps: Deps, scope: Scope, credentials: ProcessorCredentials, signal?: AbortSignal): CallContext {
  return {
    credentials,
    publicUrl: deps.config.publicUrl,
    stripeApiUrl: deps.config.stripeApiUrl,
    signal,
    records: deps.hooks.simulated.books(deps, scope),
  };
}
