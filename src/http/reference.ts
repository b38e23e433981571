// The API reference people read: GET /docs renders the service's own OpenAPI document
// (/v1/openapi.json, its `webhooks` included) with Swagger UI, from the files of the
// swagger-ui-dist package the service ships (no CDN: the service may run on a private network or
// offline). And GET / sends a browser to the dashboard, while an API client keeps its 404 envelope.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../contracts/wiring.js';

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerUiVersion = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version;

/** The files /docs/assets/<version>/ serves: only these (no directory listing, no path from the request reaches the disk). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Under a path that names the renderer's version, so browsers may keep the files for good. */
const ASSET_BASE = `/docs/assets/${swaggerUiVersion}`;

/**
 * Swagger UI sets inline styles (hence 'unsafe-inline' for styles only) and draws icons as data:
 * images; its "Try it out" calls the API at the document's server (PUBLIC_URL). Scripts come from
 * this origin only: the page's own start-up script is a file, not inline.
 */
export function referenceCsp(publicUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marketplace Backend API reference</title>
<link rel="icon" type="image/png" href="${ASSET_BASE}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSET_BASE}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${ASSET_BASE}/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
const START = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'none',
  filter: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

// cache: the reference page's static files, read from disk once per process.
const cache = new Map<string, Buffer>();

async function asset(name: string): Promise<Buffer> {
  let body = cache.get(name);
  if (body === undefined) {
    body = await readFile(join(swaggerUiDir, name));
    cache.set(name, body);
  }
  return body;
}

/** Whether the request comes from a browser navigating (it accepts HTML), rather than an API client. */
function wantsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

/** GET /docs, its assets, and GET /, outside the API document. */
export async function referenceRoutes(app: App, publicUrl: string): Promise<void> {
  const headers = {
    'content-security-policy': referenceCsp(publicUrl),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
  const page = (reply: FastifyReply, type: string, body: string | Buffer, cacheControl: string) =>
    reply.headers(headers).header('cache-control', cacheControl).type(type).send(body);

  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => page(reply, 'text/html; charset=utf-8', PAGE, 'no-cache'));
  app.get('/docs/start.js', { schema: { hide: true } }, async (_request, reply) => page(reply, 'text/javascript; charset=utf-8', START, 'no-cache'));
  app.get(`${ASSET_BASE}/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (type === undefined) return reply.callNotFound();
    return page(reply, type, await asset(name), 'public, max-age=31536000, immutable');
  });
  // A browser opening the service's address lands on the dashboard; an API client (Accept:
  // application/json, or none) gets the 404 envelope every unknown URL answers.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('vary', 'Accept');
    if (!wantsHtml(request)) return reply.callNotFound();
    return reply.code(302).header('location', '/dashboard').header('cache-control', 'no-cache').send();
  });
}
