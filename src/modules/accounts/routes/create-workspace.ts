// POST /manage/v1/workspaces: a new workspace, owned by its creator.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createWorkspace } from '../operations.js';
import { CreateWorkspaceBody, MANAGEMENT_TAG, Workspace } from '../schemas.js';

export const createWorkspaceRoute: RouteModule = (app) => {
  app.post(
    '/workspaces',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Create a workspace',
        operationId: 'createWorkspace',
        description:
          'Any signed-in user may create a workspace; they become its owner. A blank name answers 400 invalid_request (param name); ' +
          'a service running with SIGNUP=closed answers 403 signup_closed. An account owns at most `MAX_WORKSPACES_PER_USER` workspaces ' +
          '(a setting of the service, default 20): one more answers 409 `limit_exceeded`.',
        body: CreateWorkspaceBody,
        response: { 201: Workspace },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createWorkspace(request.user, request.body);
    },
  );
};
