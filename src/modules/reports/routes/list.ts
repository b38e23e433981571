// GET /v1/reports: newest first, filtered by type or status.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listReports } from '../operations.js';
import { ListReportsQuery, ReportList } from '../schemas.js';

export const listReportsRoute: RouteModule = (app) => {
  app.get(
    '/reports',
    {
      schema: {
        tags: ['Reports'],
        summary: 'List reports',
        description: 'Newest first; `type` and `status` filter. Succeeded reports carry a fresh signed `file.url`.',
        querystring: ListReportsQuery,
        response: { 200: ReportList },
      },
    },
    async (request) => listReports(request.ctx, request.query),
  );
};
