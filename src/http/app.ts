// Builds the HTTP application: conventions (request ids, JSON-only bodies, validation, errors),
// the OpenAPI document, health checks, and the route scopes: /v1 publishable-key operations,
// /v1 secret-key operations, and /manage/v1.
import Fastify, { type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import sjson from 'secure-json-parse';
import type { Config } from '../config.js';
import { newId } from '../ids.js';
import { DomainError } from '../errors.js';
import { operationContext, serviceContext } from './request-context.js';
import { apiKeyAuth, type Access, type SessionAuthenticator } from './api-auth.js';
import { clientErrorHandler } from './client-errors.js';
import { installErrorHandling } from './error-handler.js';
import { claimOwners } from './claim-owners.js';
import { expandableRoutes } from './expansion.js';
import { idempotent, type IdempotencyServices } from './idempotency.js';
import { AppMetrics, installMetrics } from './metrics.js';
import { referenceRoutes } from './reference.js';
import { finishDocument, type OpenApiDocument, type OpenApiWebhook } from './openapi.js';
import { errorBody } from './error-statuses.js';
import { EmptyBody, ErrorEnvelope, ErrorResponses, NoQuery } from './schemas.js';
import type { App, RouteModule, Services } from '../contracts/wiring.js';
import type { CounterSource, WorkStatsSource } from '../contracts/background.js';
import { findBadText, MAX_NESTING, nestsDeeperThan, validatorCompiler } from './validation.js';
import { requestLogFields } from './log-redaction.js';

export const BODY_LIMIT = 1024 * 1024;

export interface RouteTable {
  /** Operations a publishable key may call (answer browsers from any origin). */
  publishable: RouteModule[];
  /** Operations that need a secret key. */
  secret: RouteModule[];
  /** /manage/v1: authenticated per route by the management module. */
  manage: RouteModule[];
  /** Routes outside /v1 and /manage/v1 (dashboard, simulated processor pages, uploads). */
  root: RouteModule[];
}

export interface AppOptions {
  services: Services;
  routes: RouteTable;
  /** Reports whether the service may take traffic (migrations ran, database answers). */
  readiness: () => Promise<boolean>;
  /** The dashboard's session cookie on /v1 (src/modules/dashboard); without it /v1 takes API keys only. */
  sessions?: SessionAuthenticator;
  logger?: boolean | object;
  /** Background work kept in modules' own rows, for GET /metrics (src/app/wiring.ts). */
  workStats?: readonly WorkStatsSource[];
  /** The event envelopes the service POSTs to webhook endpoints: the document's `webhooks`. */
  webhooks?: readonly OpenApiWebhook[];
  /** Counters kept in modules' rows, for GET /metrics (the ledger's invariant violations). */
  counters?: readonly CounterSource[];
}

function parseJson(request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(null, undefined);
  let value: unknown;
  try {
    value = sjson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // secure-json-parse throws for __proto__ and constructor.prototype keys, which could poison
    // prototypes further down; say so rather than calling valid JSON malformed.
    const forbidden = error instanceof SyntaxError && /forbidden (prototype|constructor) property/.test(error.message);
    return done(
      new DomainError(
        'invalid_request',
        forbidden ? 'Keys named "__proto__" or "constructor.prototype" are not accepted.' : 'The body is not valid JSON.',
      ),
    );
  }
  // Checked first: the checks after it (and ajv) walk the value recursively.
  if (nestsDeeperThan(value, MAX_NESTING)) {
    return done(new DomainError('invalid_request', `The body nests objects or arrays deeper than ${MAX_NESTING} levels.`));
  }
  const bad = findBadText(value);
  if (bad !== null) {
    return done(new DomainError('invalid_request', 'Text may not contain NUL characters or lone surrogates.', bad || undefined));
  }
  void request;
  return done(null, value);
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { services } = options;
  const metrics = new AppMetrics(services, options.workStats, options.counters);
  // frameworkErrors reads `app` when a request comes, once it is made.
  const app: App = Fastify({
    // Every logger the app makes writes requests through requestLogFields: capability URLs' secrets redacted.
    logger: options.logger === false ? false : { level: services.config.logLevel, ...(typeof options.logger === 'object' ? options.logger : {}), serializers: { req: requestLogFields } },
    bodyLimit: BODY_LIMIT,
    genReqId: () => newId('request'),
    requestIdHeader: false,
    // request.ip is the connection's address unless TRUST_PROXY names the proxies in front.
    trustProxy: trustProxyOption(services.config.trustProxy),
    ajv: { customOptions: { strict: false } },
    routerOptions: { ignoreTrailingSlash: true },
    // Requests Node's parser refuses (headers over 16 KiB, not HTTP) get the envelope too.
    clientErrorHandler: clientErrorHandler((status) => metrics.countClientError(status)),
    // A URL that does not decode, or a path segment over maxParamLength (100), is refused by the
    // router before any hook runs: answered here as the hooks would have answered it (the
    // envelope, its Request-Id, CORS on a publishable-key path), and counted and logged when it
    // is sent, like every request (docs/requests.md).
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path segment is longer than 100 characters.'
          : 'The URL is not valid: it holds a percent-encoding that does not decode to text.';
      reply.raw.once('finish', () => {
        metrics.observeRequest(request, reply);
        reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
      });
      if (isPublishablePath(app, request.url)) setCorsHeaders(reply);
      return reply
        .code(400)
        .header('Request-Id', request.id)
        .type('application/json')
        .send(errorBody('invalid_request', message, request.id));
    },
  }).withTypeProvider() as unknown as App;

  const service = serviceContext(services);
  app.decorateRequest('service', { getter: () => service });
  app.setValidatorCompiler(validatorCompiler);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, parseJson);
  // Hooks that run on every request are callback hooks, not async ones: they have nothing to wait
  // for, and an async hook costs a promise and a turn of the microtask queue per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Request-Id', request.id);
    done();
  });
  // A request with no body at all reads as {}: operations whose fields are all optional work
  // without one (as Stripe's do), and a missing required field is named by its param.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    // Path and query text reaches SQL too: a NUL or lone surrogate there is a 400, never a 500.
    const bad = findBadText(request.params) ?? findBadText(request.query);
    if (bad !== null) {
      return done(new DomainError('invalid_request', 'Text may not contain NUL characters or lone surrogates.', bad || undefined));
    }
    done();
  });
  installErrorHandling(app, services.wiring.errorStatuses, (request, reply) => {
    if (isPublishablePath(app, request.url)) setCorsHeaders(reply);
  });
  app.addSchema(ErrorEnvelope);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Marketplace Backend API',
        version: 'v1',
        description:
          'Sellers, buyers, catalog, orders, payments, events and webhooks. Authenticate with `Authorization: Bearer <key>`. ' +
          'Errors answer `{error: {code, message, param?, request_id}}`; every response carries `Request-Id`. ' +
          'A request refused before it reaches an operation (request line and headers over 16 KiB: 431 `request_header_too_large`; ' +
          'not HTTP: 400 `invalid_request`; headers too slow: 408 `request_timeout`) answers the same envelope and closes the connection.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // The modules' tags (their manifests), by rank: src/app/wiring.ts.
      tags: services.wiring.tags.map(({ name, description }) => ({ name, description })),
      servers: [{ url: services.config.publicUrl }],
      components: {
        securitySchemes: {
          secretKey: { type: 'http', scheme: 'bearer', description: 'sk_test_… or sk_live_…' },
          publishableKey: { type: 'http', scheme: 'bearer', description: 'pk_test_… or pk_live_… (PK operations only)' },
          managementToken: { type: 'http', scheme: 'bearer', description: 'mgt_… token from signup or login' },
          operatorToken: { type: 'http', scheme: 'bearer', description: 'The OPERATOR_TOKEN the service was started with' },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'mb_session',
            description:
              'The dashboard session cookie set by POST /manage/v1/sessions (HttpOnly). Requests other than GET and HEAD authenticated ' +
              'by it must also send X-CSRF-Token (403 csrf_token_invalid otherwise); requests with Authorization are authenticated by that instead.',
          },
          csrfToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description: "The session's csrf_token (from POST /manage/v1/sessions or GET /manage/v1/session), on every request but GET and HEAD.",
          },
          dashboardMarketplace: {
            type: 'apiKey',
            in: 'header',
            name: 'Dashboard-Marketplace',
            description: 'With the session cookie and no Authorization: the marketplace (mkt_…) the signed-in member acts on.',
          },
          dashboardMode: {
            type: 'apiKey',
            in: 'header',
            name: 'Dashboard-Mode',
            description: 'With the session cookie and no Authorization: test or live, the mode the signed-in member acts on.',
          },
        },
      },
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: OpenApiDocument }).openapiObject, services.wiring.errorStatuses, options.webhooks) as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await options.readiness().catch(() => false);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await referenceRoutes(app, services.config.publicUrl);
  installMetrics(app, metrics, services);

  // The Idempotency-Key claims this app makes are this process's: they last while it lives.
  const owners = claimOwners(services.db, (err) => app.log.error({ err }, 'idempotency claim owner: connection lost'));
  app.addHook('onClose', () => owners.close());
  const keyed: IdempotencyServices = { db: services.db, clock: services.clock, owners, faults: services.faults, errorStatuses: services.wiring.errorStatuses };
  await app.register(async (scope) => apiScope(scope as unknown as App, services, keyed, 'publishable', options.routes.publishable, options.sessions), {
    prefix: '/v1',
  });
  await app.register(async (scope) => apiScope(scope as unknown as App, services, keyed, 'secret', options.routes.secret, options.sessions), {
    prefix: '/v1',
  });
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', closeUndeclaredInput);
      // reply.setCookie for the dashboard's session routes (they live here), without the plugin's
      // hook that would parse the Cookie header of every request: the session is read from the
      // header where it authenticates (src/modules/dashboard/cookie.ts). Unsigned: the session
      // token is its own proof.
      await scope.register(cookie, { hook: false });
      for (const register of options.routes.manage) await register(scope as unknown as App, services);
    },
    { prefix: '/manage/v1' },
  );
  for (const register of options.routes.root) await register(app, services);
  return app;
}

/** A hop count trusts that many proxies nearest the server (Fastify's types take it as a function). */
function trustProxyOption(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Query strings, and POST and DELETE bodies, are closed like every declared body: an operation that
 * declares no query parameter (or no body) refuses one it does not know, by name, rather than
 * ignoring it.
 */
function closeUndeclaredInput(route: RouteOptions) {
  route.schema = {
    querystring: NoQuery,
    ...(route.method === 'POST' || route.method === 'DELETE' ? { body: EmptyBody } : {}),
    ...route.schema,
  };
}

/** The dashboard's way in: its session cookie, the marketplace and mode, and on writes the CSRF token. */
function dashboardSecurity(method: RouteOptions['method']): Record<string, string[]> {
  const read = method === 'GET' || method === 'HEAD';
  return { dashboardSession: [], dashboardMarketplace: [], dashboardMode: [], ...(read ? {} : { csrfToken: [] }) };
}

async function apiScope(
  scope: App,
  services: Services,
  keyed: IdempotencyServices,
  access: Access,
  modules: RouteModule[],
  sessions?: SessionAuthenticator,
) {
  scope.addHook('onRoute', closeUndeclaredInput);
  scope.addHook('onRoute', expandableRoutes(services.wiring.expandable));
  scope.addHook('onRoute', (route: RouteOptions) => {
    const keys: Array<Record<string, string[]>> = access === 'publishable' ? [{ secretKey: [] }, { publishableKey: [] }] : [{ secretKey: [] }];
    route.schema = {
      ...route.schema,
      security: sessions ? [...keys, dashboardSecurity(route.method)] : keys,
      response: { ...ErrorResponses, ...(route.schema?.response as object | undefined) },
    };
    if (route.method === 'POST') route.handler = idempotent(route.handler, keyed);
  });
  if (access === 'publishable') allowBrowsers(scope);
  // The operation context of the authenticated key is built once its checks passed (a preflight
  // OPTIONS has none).
  scope.addHook(
    'onRequest',
    apiKeyAuth(services.apiKeys, services.rateLimiter, access, sessions, (request) => {
      request.ctx = operationContext(services, request.api);
    }),
  );
  for (const register of modules) await register(scope, services);
}

/**
 * CORS for the PK operations only: any origin may read them from a browser. Each PK
 * route gets its own preflight route, so other /v1 paths send no CORS headers at all.
 */
function allowBrowsers(scope: App) {
  const preflightFor = new Set<string>();
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (route.method !== 'GET' || preflightFor.has(route.url)) return;
    preflightFor.add(route.url);
    scope.options(route.url.replace(/^\/v1/, ''), { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(204)
        .header('Access-Control-Allow-Origin', '*')
        .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
        .header('Access-Control-Allow-Headers', 'Authorization, Content-Type')
        .header('Access-Control-Max-Age', '600')
        .send(),
    );
  });
  // Set when the request arrives, not in an onSend hook: the headers stay on every answer,
  // errors included, and the answer is not held up by one more hook.
  scope.addHook('onRequest', (_request, reply, done) => {
    setCorsHeaders(reply);
    done();
  });
}

/** The CORS headers of an answer of a publishable-key operation. */
function setCorsHeaders(reply: FastifyReply): void {
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Expose-Headers', 'Request-Id, Retry-After');
}

/**
 * Whether a URL the router refused (a %-escape that does not decode, a segment over 100
 * characters) is on a publishable-key operation's path: each has its preflight route (OPTIONS),
 * found once the refused segments are replaced by a plain one.
 */
function isPublishablePath(app: App, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  const plain = path
    .split('/')
    .map((segment) => {
      try {
        return segment.length > 100 ? 'x' : (decodeURIComponent(segment), segment);
      } catch {
        return 'x';
      }
    })
    .join('/');
  return app.findRoute({ method: 'OPTIONS', url: plain }) !== null;
}
