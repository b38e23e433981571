// The management API (/manage/v1), in three auth scopes: public (signup, login,
// accepting an invitation), operator (OPERATOR_TOKEN), and everything else for a signed-in user.
// Which module's routes live in which scope is decided here; the routes are the modules'.
import type { RouteOptions } from 'fastify';
import { ErrorResponses } from '../../http/schemas.js';
import type { App, RouteModule, Services } from '../../http/types.js';
import { requireOperator, requireUser } from '../accounts/auth.js';
import { accountOperatorRoutes, accountPublicRoutes, memberRoutes, sessionRoutes } from '../accounts/routes/index.js';
import { serviceContext } from '../context.js';
import { marketplaceManagementRoutes } from '../marketplaces/routes/index.js';
import { listEmailsRoute } from './routes/list-emails.js';

const SIGNED_IN: RouteModule[] = [...sessionRoutes, ...marketplaceManagementRoutes, ...memberRoutes, listEmailsRoute];

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

async function registerAll(scope: App, services: Services, routes: readonly RouteModule[]): Promise<void> {
  for (const register of routes) await register(scope, services);
}

export const manageRoutes: RouteModule = async (app: App, services: Services) => {
  await app.register(async (scope) => {
    const publicScope = scope as unknown as App;
    documented(publicScope, []);
    await registerAll(publicScope, services, accountPublicRoutes);
  });
  await app.register(async (scope) => {
    const operator = scope as unknown as App;
    documented(operator, [{ operatorToken: [] }]);
    operator.addHook('onRequest', requireOperator(services.config));
    await registerAll(operator, services, accountOperatorRoutes);
  });
  await app.register(async (scope) => {
    const signedIn = scope as unknown as App;
    documented(signedIn, [{ managementToken: [] }]);
    signedIn.addHook('onRequest', requireUser(serviceContext(services)));
    await registerAll(signedIn, services, SIGNED_IN);
  });
};
