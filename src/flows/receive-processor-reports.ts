// A processor's event (Stripe's webhook, verified by the processor-webhooks module), in one
// transaction: payments records the event's id (a second delivery changes nothing and answers
// 'duplicate'), then each of its reports is settled in turn (settle-processor-report.ts). The
// processor calls they ask for are made right after the COMMIT.
import type { Deps } from '../contracts/deps.js';
import type { ProcessorReport } from '../contracts/processor.js';
import { modeNow, type Scope } from '../scope.js';
import { processorCallsAfterCommit, recordEventReceipt, type ReportSource } from '../modules/payments/index.js';
import { settleProcessorReport } from './settle-processor-report.js';

export async function receiveProcessorReports(deps: Deps, scope: Scope, source: ReportSource, reports: readonly ProcessorReport[]): Promise<'handled' | 'duplicate'> {
  const kick = processorCallsAfterCommit(deps);
  return deps.db.transaction(async (tx) => {
    const now = await modeNow(tx, deps.clock, scope);
    if (!(await recordEventReceipt(tx, scope, source, now))) return 'duplicate';
    for (const report of reports) await settleProcessorReport(tx, scope, report, now, kick);
    return 'handled';
  });
}
