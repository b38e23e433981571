// POST /v1/reports: ask for a report; it is built in the background.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createReport } from '../operations.js';
import { CreateReportBody, Report } from '../schemas.js';

export const createReportRoute: RouteModule = (app) => {
  app.post(
    '/reports',
    {
      schema: {
        tags: ['Reports'],
        summary: 'Create a report',
        description:
          'Answers the report `pending`; a worker builds its CSV (docs/ledger.md, "Reports") and the report becomes `succeeded` (with `file`) ' +
          'or `failed` (with `failure`), emitting `report.succeeded` or `report.failed`. The interval is [interval_start, interval_end), each an ISO 8601 timestamp or unix seconds, a whole second (the report answers it in unix seconds), ' +
          'at most 366 days (400 `invalid_request`, `param: interval_end`, when it is empty, reversed or longer). `seller` is required for ' +
          '`seller_statement` and refused for the other types (400, `param: seller`); an unknown seller answers 404 `resource_missing`, `param: seller`. ' +
          'At most `MAX_PENDING_REPORTS` (default 10) reports of a mode wait to be built: one more answers 409 `limit_exceeded`.',
        body: CreateReportBody,
        response: { 201: Report },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createReport(request.ctx, request.body);
    },
  );
};
