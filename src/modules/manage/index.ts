// The management API (/manage/v1, contract 2), in three auth scopes: public (signup, login,
// accepting an invitation), operator (OPERATOR_TOKEN), and everything else for a signed-in user.
import type { RouteOptions } from 'fastify';
import { ErrorResponses } from '../../http/schemas.js';
import type { App, RouteModule, Services } from '../../http/types.js';
import { requireOperator, requireUser } from './auth.js';
import { acceptInvitationRoute } from './routes/accept-invitation.js';
import { addMemberRoute } from './routes/add-member.js';
import { createApiKeyRoute } from './routes/create-api-key.js';
import { createMarketplaceRoute } from './routes/create-marketplace.js';
import { deleteProcessorRoute } from './routes/delete-processor.js';
import { getMarketplaceRoute } from './routes/get-marketplace.js';
import { getProcessorRoute } from './routes/get-processor.js';
import { getSettingsRoute } from './routes/get-settings.js';
import { listApiKeysRoute } from './routes/list-api-keys.js';
import { listEmailsRoute } from './routes/list-emails.js';
import { listMarketplacesRoute } from './routes/list-marketplaces.js';
import { listMembersRoute } from './routes/list-members.js';
import { listWorkspacesRoute } from './routes/list-workspaces.js';
import { loginRoute } from './routes/login.js';
import { logoutRoute } from './routes/logout.js';
import { putProcessorRoute } from './routes/put-processor.js';
import { removeMemberRoute } from './routes/remove-member.js';
import { revokeApiKeyRoute } from './routes/revoke-api-key.js';
import { rollApiKeyRoute } from './routes/roll-api-key.js';
import { setBillingStateRoute } from './routes/set-billing-state.js';
import { signupRoute } from './routes/signup.js';
import { updateSettingsRoute } from './routes/update-settings.js';

const PUBLIC: RouteModule[] = [signupRoute, loginRoute, acceptInvitationRoute];

const SIGNED_IN: RouteModule[] = [
  logoutRoute,
  listWorkspacesRoute,
  createMarketplaceRoute,
  listMarketplacesRoute,
  getMarketplaceRoute,
  getSettingsRoute,
  updateSettingsRoute,
  putProcessorRoute,
  getProcessorRoute,
  deleteProcessorRoute,
  createApiKeyRoute,
  listApiKeysRoute,
  rollApiKeyRoute,
  revokeApiKeyRoute,
  listMembersRoute,
  addMemberRoute,
  removeMemberRoute,
  listEmailsRoute,
];

/** Every route of a scope documents the error envelope (4XX and 5XX, as /v1) and, unless it says otherwise, its security. */
function documented(scope: App, security: Array<Record<string, string[]>>): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      security: (schema.security as typeof security | undefined) ?? security,
      response: { ...ErrorResponses, ...(schema.response as object | undefined) },
    };
  });
}

export const manageRoutes: RouteModule = async (app: App, services: Services) => {
  await app.register(async (scope) => {
    const publicScope = scope as unknown as App;
    documented(publicScope, []);
    for (const register of PUBLIC) await register(publicScope, services);
  });
  await app.register(async (scope) => {
    const operator = scope as unknown as App;
    documented(operator, [{ operatorToken: [] }]);
    operator.addHook('onRequest', requireOperator(services.config));
    await setBillingStateRoute(operator, services);
  });
  await app.register(async (scope) => {
    const signedIn = scope as unknown as App;
    documented(signedIn, [{ managementToken: [] }]);
    signedIn.addHook('onRequest', requireUser(services));
    for (const register of SIGNED_IN) await register(signedIn, services);
  });
};
