// The ledger's routes (secret key). GET /v1/sellers/{id}/balance is a flow's (src/flows/seller-balance.ts): it adds the payout schedule's next run.
import type { RouteModule } from '../../../contracts/wiring.js';
import { balanceTransactionRoutes } from './balance-transactions.js';
import { dailyTotalsRoutes } from './daily-totals.js';

export const ledgerRoutes: RouteModule[] = [balanceTransactionRoutes, dailyTotalsRoutes];
