// GET /v1/reports/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveReport } from '../operations.js';
import { Report } from '../schemas.js';

export const retrieveReportRoute: RouteModule = (app) => {
  app.get(
    '/reports/:id',
    {
      schema: {
        tags: ['Reports'],
        summary: 'Retrieve a report',
        description:
          'Once `succeeded`, `file` holds a signed link to the CSV (valid one to two hours: read the report again for a fresh one), its size, ' +
          'content type and number of data rows. A link that was altered answers 403 `url_signature_invalid`, an expired one 403 `url_expired`.',
        params: IdParams,
        response: { 200: Report },
      },
    },
    async (request) => retrieveReport(request.ctx, request.params.id),
  );
};
