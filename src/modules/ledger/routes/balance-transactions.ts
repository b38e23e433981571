// GET /v1/balance_transactions, GET /v1/balance_transactions/{id}
import type { RouteModule } from '../../../contracts/wiring.js';
import { IdParams } from '../../../http/schemas.js';
import { listBalanceTransactions, retrieveBalanceTransaction } from '../operations.js';
import { BalanceTransaction, BalanceTransactionList, ListBalanceTransactionsQuery } from '../schemas.js';

export const balanceTransactionRoutes: RouteModule = (app) => {
  app.get(
    '/balance_transactions',
    {
      schema: {
        tags: ['Ledger'],
        summary: 'List balance transactions',
        description:
          'The lines of the ledger (docs/ledger.md), newest first: every money movement is a journal entry of lines that balance. Filters: `seller` (both lines of that seller\'s entries), `account`, `order`, `payment`, `type`, `created[gte]`, `created[gt]`, `created[lte]` and `created[lt]` (each an ISO 8601 timestamp or unix seconds). The ledger is append-only: a correction is a new entry.',
        querystring: ListBalanceTransactionsQuery,
        response: { 200: BalanceTransactionList },
      },
    },
    async (request) => listBalanceTransactions(request.ctx, request.query),
  );
  app.get(
    '/balance_transactions/:id',
    { schema: { tags: ['Ledger'], summary: 'Retrieve a balance transaction', params: IdParams, response: { 200: BalanceTransaction } } },
    async (request) => retrieveBalanceTransaction(request.ctx, request.params.id),
  );
};
