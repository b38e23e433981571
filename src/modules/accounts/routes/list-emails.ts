// GET /manage/v1/emails: the workspace's outbox (src/modules/emails), newest first, for a member.
import { Type } from '@sinclair/typebox';
import { ListOf, Nullable, StringEnum, Timestamp } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { listWorkspaceEmails } from '../workspace-emails.js';
import { MANAGEMENT_TAG, WorkspacePageQuery } from '../schemas.js';

const Email = Type.Object(
  {
    object: Type.Literal('email'),
    id: Type.String({ examples: ['eml_01jd0000000000000000000000'] }),
    to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Type.String(),
    status: StringEnum(['queued', 'sent', 'failed']),
    created_at: Timestamp,
    sent_at: Nullable(Timestamp),
  },
  {
    examples: [
      {
        object: 'email',
        id: 'eml_01jd0000000000000000000000',
        to: ['grace@example.com'],
        subject: 'You were added to Acme',
        text: 'ada@example.com added you to the workspace "Acme" as developer.\n\nLog in at https://market.example.com/dashboard to see it.\n',
        status: 'sent',
        created_at: '2026-11-21T09:30:00.000Z',
        sent_at: '2026-11-21T09:30:02.000Z',
      },
    ],
  },
);

export const listEmailsRoute: RouteModule = (app) => {
  app.get(
    '/emails',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'List emails sent or queued',
        operationId: 'listEmails',
        description: 'Every email the service sent or queued for the workspace. Without SMTP_URL emails stay queued here.',
        querystring: WorkspacePageQuery,
        response: { 200: ListOf(Email) },
      },
    },
    async (request) => listWorkspaceEmails(request.user, request.user.principal, request.query),
  );
};
