// GET /manage/v1/emails: the outbox, newest first.
import type { RouteModule } from '../../../http/types.js';
import { ListOf } from '../../../http/schemas.js';
import { listWorkspaceEmails } from '../../emails/outbox.js';
import { EmailRecord, TAG, WorkspacePageQuery } from '../schemas.js';

export const listEmailsRoute: RouteModule = (app, services) => {
  app.get(
    '/emails',
    {
      schema: {
        tags: [TAG],
        summary: 'List emails sent or queued',
        operationId: 'listEmails',
        description: 'Every email the service sent or queued for the workspace. Without SMTP_URL emails stay queued here.',
        querystring: WorkspacePageQuery,
        response: { 200: ListOf(EmailRecord) },
      },
    },
    async (request) => listWorkspaceEmails(services, request.principal, request.query),
  );
};
