// The builder of each report type.
import type { ReportType } from '../schemas.js';
import { balanceSummary } from './balance-summary.js';
import { platformFees } from './platform-fees.js';
import { reconciliation } from './reconciliation.js';
import { sellerStatement } from './seller-statement.js';
import type { ReportBuilder } from './types.js';

export const BUILDERS: Record<ReportType, ReportBuilder> = {
  seller_statement: sellerStatement,
  platform_fees: platformFees,
  balance_summary: balanceSummary,
  reconciliation,
};
