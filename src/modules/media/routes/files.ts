// The local store's addresses outside /v1: PUT /uploads/{token} and GET /media/{token}. They
// register in a scope of their own whose one body parser hands the raw request stream over, so
// an upload is streamed to disk and never held in memory (JSON stays the only body elsewhere).
// Both answer browsers from any origin (CORS), as a browser uploads straight to them.
import type { Readable } from 'node:stream';
import type { App, RouteModule } from '../../../contracts/wiring.js';
import { receiveUpload, serveMedia } from '../files.js';
import { TokenParams } from '../schemas.js';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export const mediaFileRoutes: RouteModule = async (root) => {
  await root.register(async (instance) => {
    const scope = instance as unknown as App;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // Browsers upload and read from the platform's own origin: the signed token is the credential
    // (no cookies, no key), so any origin may use these addresses.
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', 'ETag, Content-Range, Content-Length, Request-Id');
      return payload;
    });
    scope.options('/uploads/:token', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'PUT, OPTIONS')
        .header('access-control-allow-headers', 'Content-Type')
        .header('access-control-max-age', '600')
        .send(),
    );

    scope.put(
      '/uploads/:token',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const { etag } = await receiveUpload(request.service, {
          token: request.params.token,
          contentType: header(request.headers['content-type']),
          contentLength: header(request.headers['content-length']),
          body: (request.body as Readable | undefined) ?? request.raw,
        });
        return reply.code(200).header('etag', etag).send();
      },
    );

    scope.get(
      '/media/:token',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const answer = await serveMedia(request.service, request.params.token, {
          ifNoneMatch: header(request.headers['if-none-match']),
          range: header(request.headers.range),
        });
        reply.code(answer.status).headers(answer.headers);
        return answer.body === null ? reply.send() : reply.send(answer.body);
      },
    );
  });
};
