// The dashboard's files, served by the API process at /dashboard from the front end's build
// (config.dashboardDir, by default dist/dashboard, written by `npm run build`). Hashed files under
// assets/ never change, so browsers keep them a year; every other path answers index.html (the
// single-page app routes in the browser) and is revalidated each time, so a new build shows at
// once. Every answer carries a strict Content-Security-Policy: the dashboard loads nothing from
// anywhere else (the service may run on a private network) and cannot be framed.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import { errors } from '../../errors.js';
import type { App, RouteModule } from '../../contracts/wiring.js';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under root that a path names, or null. Only plain relative names resolve: no '..'
 * segment, no absolute path, no backslash or NUL, and the result must still lie under root.
 */
export function fileUnder(root: string, relative: string): string | null {
  if (relative === '' || /[\\\0]/.test(relative) || relative.startsWith('/')) return null;
  if (relative.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  const base = resolve(root);
  const full = resolve(base, relative);
  return full.startsWith(base + sep) ? full : null;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile(),
    () => false,
  );
}

async function send(reply: FastifyReply, path: string, cacheControl: string): Promise<FastifyReply> {
  const body = await readFile(path);
  return reply
    .header('cache-control', cacheControl)
    .type(CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream')
    .send(body);
}

/** Answers one /dashboard path from the build in root. */
export async function serveDashboard(root: string, relative: string, reply: FastifyReply): Promise<FastifyReply> {
  const index = join(root, 'index.html');
  if (!(await isFile(index))) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send('The dashboard is not built. Run `npm run build` (npm start runs it), then reload.\n');
  }
  const file = fileUnder(root, relative);
  if (relative.startsWith('assets/')) {
    // A missing hashed file is a stale page asking for an old build's file: 404, not index.html.
    if (file === null || !(await isFile(file))) throw errors.missing('dashboard file', `/dashboard/${relative}`);
    return send(reply, file, IMMUTABLE);
  }
  if (file !== null && (await isFile(file))) return send(reply, file, REVALIDATE);
  return send(reply, index, REVALIDATE);
}

/** GET /dashboard, /dashboard/ and /dashboard/*, outside the API document. */
export const dashboardPageRoutes: RouteModule = async (app, services) => {
  const root = services.config.dashboardDir;
  await app.register(async (instance) => {
    const scope = instance as unknown as App;
    // Set first, so errors (404, 503) carry them too.
    scope.addHook('onRequest', async (_request, reply) => {
      reply.headers(SECURITY_HEADERS);
    });
    scope.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => serveDashboard(root, '', reply));
    scope.get('/dashboard/*', { schema: { hide: true } }, async (request, reply) =>
      serveDashboard(root, (request.params as { '*': string })['*'], reply),
    );
  });
};
