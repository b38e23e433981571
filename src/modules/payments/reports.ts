// PLACEHOLDER on wip/stripe only, so the Stripe webhook route compiles and runs before the
// payments module lands: main's src/modules/payments/reports.ts (same signature) replaces it
// whole at the merge. It handles nothing.
import type { Scope } from '../../scope.js';
import type { JobDeps } from '../../workers/job-kinds.js';
import type { ProcessorReport } from '../processors/driver.js';

export interface ReportSource {
  provider: 'stripe' | 'simulated';
  /** The processor's event id: a second delivery of one event is recognised and ignored. */
  eventId: string;
}

/** Handles one processor event's reports in one transaction; 'duplicate' when the event was handled before. */
export async function receiveProcessorReports(_deps: JobDeps, _scope: Scope, _source: ReportSource, _reports: readonly ProcessorReport[]): Promise<'handled' | 'duplicate'> {
  return 'handled';
}
