// GET /report_files/{token}: a report's CSV from the local store, outside /v1 (the signed token is
// the credential, as for media links).
import type { RouteModule } from '../../../contracts/wiring.js';
import { serveReportFile } from '../files.js';
import { TokenParams } from '../schemas.js';

export const reportFileRoute: RouteModule = (app) => {
  app.get('/report_files/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const answer = await serveReportFile(request.service, request.params.token);
    return reply.code(200).headers(answer.headers).send(answer.body);
  });
};
