// The route table of the HTTP app (src/http/app.ts mounts /v1's two scopes and the root pages)
// from the wiring's route scopes, which the modules' manifests declare. The management API
// (/manage/v1) is mounted here, in four auth scopes: public (sign-up, login, the dashboard's login
// and password reset, accepting an invitation), operator (OPERATOR_TOKEN), the dashboard session's
// own routes (its cookie only), and everything else for a signed-in user (a Bearer management
// token or the dashboard's session cookie).
import type { RouteOptions } from 'fastify';
import { ErrorResponses } from '../http/schemas.js';
import type { App, RouteModule, RouteScopes, Services } from '../contracts/wiring.js';
import type { RouteTable } from '../http/app.js';
import { bearerManagementToken, requireOperator, requireUser } from '../modules/accounts/index.js';
import { serviceContext } from '../http/request-context.js';
import { dashboardSessionCookie } from '../modules/dashboard/index.js';

type Security = Array<Record<string, string[]>>;

/** The dashboard's cookie; on a request that may change something, with its CSRF token. */
function sessionSecurity(method: RouteOptions['method']): Record<string, string[]> {
  return method === 'GET' || method === 'HEAD' ? { dashboardSession: [] } : { dashboardSession: [], csrfToken: [] };
}

/** Every route of a scope documents the error envelope (4XX and 5XX, as /v1) and, unless it says otherwise, its security. */
function documented(scope: App, security: Security | ((method: RouteOptions['method']) => Security)): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      security: (schema.security as Security | undefined) ?? (typeof security === 'function' ? security(route.method) : security),
      response: { ...ErrorResponses, ...(schema.response as object | undefined) },
    };
  });
}

async function registerAll(scope: App, services: Services, routes: readonly RouteModule[]): Promise<void> {
  for (const register of routes) await register(scope, services);
}

/** /manage/v1's four scopes, each with the routes the manifests put in it. */
function manageRoutes(routes: RouteScopes): RouteModule {
  return async (app: App, services: Services) => {
    await app.register(async (scope) => {
      const publicScope = scope as unknown as App;
      documented(publicScope, []);
      await registerAll(publicScope, services, routes.managePublic);
    });
    await app.register(async (scope) => {
      const operator = scope as unknown as App;
      documented(operator, [{ operatorToken: [] }]);
      operator.addHook('onRequest', requireOperator(services.config));
      await registerAll(operator, services, routes.manageOperator);
    });
    await app.register(async (scope) => {
      const session = scope as unknown as App;
      documented(session, (method) => [sessionSecurity(method)]);
      session.addHook('onRequest', requireUser(serviceContext(services), [dashboardSessionCookie]));
      await registerAll(session, services, routes.manageSession);
    });
    await app.register(async (scope) => {
      const signedIn = scope as unknown as App;
      documented(signedIn, (method) => [{ managementToken: [] }, sessionSecurity(method)]);
      // A Bearer token first: a request that carries one is not the browser's, and needs no CSRF token.
      signedIn.addHook('onRequest', requireUser(serviceContext(services), [bearerManagementToken, dashboardSessionCookie]));
      await registerAll(signedIn, services, routes.manageSignedIn);
    });
  };
}

/** The HTTP app's route table from the wiring's scopes. */
export function routeTable(routes: RouteScopes): RouteTable {
  return { publishable: [...routes.publishable], secret: [...routes.secret], manage: [manageRoutes(routes)], root: [...routes.root] };
}
