// The report state machine as one table (docs/state-machines.md): a report is asked for pending,
// and its build job (job.ts) records the outcome once. The job reads the table before it builds
// and when it records; the SQL that records moves only from the states the table names, so a
// report no longer pending is skipped, as before, and never built or recorded twice.
import { defineMachine } from '../../domain/state-machine.js';
import type { ReportStatus } from './schemas.js';

export const REPORT_STATES = ['pending', 'succeeded', 'failed'] as const satisfies readonly ReportStatus[];

export const REPORT_MACHINE = defineMachine({
  subject: 'report',
  states: REPORT_STATES,
  initial: ['pending'],
  operations: { succeed: 'succeed', fail: 'fail' },
  rows: [
    // The worker built the file and stored it. No retry: the first failure is the report's.
    { from: ['pending'], operation: 'succeed', who: ['platform'], to: 'succeeded', emits: ['report.succeeded'] },
    { from: ['pending'], operation: 'fail', who: ['platform'], to: 'failed', emits: ['report.failed'] },
  ],
});

export type ReportOperation = keyof typeof REPORT_MACHINE.operations;
