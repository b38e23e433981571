// The ledger's routes (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { balanceTransactionRoutes } from './balance-transactions.js';
import { dailyTotalsRoutes } from './daily-totals.js';
import { sellerBalanceRoutes } from './seller-balance.js';

export const ledgerRoutes: RouteModule[] = [balanceTransactionRoutes, sellerBalanceRoutes, dailyTotalsRoutes];
