// Every error leaves through here as the error envelope {error: {code, message, param, request_id}}. Only DomainErrors and
// known request errors carry their message out; anything else is a 500 whose body says nothing
// of the database or the stack (the log has it, with the request id).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.js';
import type { ErrorStatuses } from '../contracts/wiring.js';
import { errorBody } from './error-statuses.js';
import { validationError } from './validation.js';

export function toDomainError(error: FastifyError | Error): DomainError | null {
  if (error instanceof DomainError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return validationError(fastifyError.validation as never, fastifyError.validationContext ?? 'body');
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('request_too_large', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('invalid_request', 'The body is shorter or longer than its Content-Length says.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('invalid_request', 'The body is empty but Content-Type says JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_BAD_URL':
      return new DomainError('invalid_request', fastifyError.message);
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError) {
    return new DomainError('invalid_request', 'The body is not valid JSON.');
  }
  // Any other request error Fastify raises itself (bad charset, malformed header…) is the
  // client's fault: a 400, not a 500 that would tell the client to retry the same request.
  const status = fastifyError.statusCode ?? 0;
  if (fastifyError.code?.startsWith('FST_') && status >= 400 && status < 500) {
    return new DomainError('invalid_request', fastifyError.message);
  }
  return null;
}

/**
 * `corsFor`: whether a request no route answers is on a publishable-key operation's path (another
 * method of it): its 404 then carries the CORS headers that path's answers carry.
 */
export function installErrorHandling(
  app: FastifyInstance,
  statuses: ErrorStatuses,
  corsFor: (request: FastifyRequest, reply: FastifyReply) => void = () => undefined,
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const domain = toDomainError(error);
    if (domain) {
      const status = statuses[domain.code];
      if (domain.code === 'rate_limited') reply.header('Retry-After', String(domain.detail?.retryAfterSeconds ?? 1));
      return reply.code(status).type('application/json').send(errorBody(domain.code, domain.message, request.id, domain.param));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .type('application/json')
      .send(errorBody('internal_error', 'Something went wrong on our side. Retry the request (a /v1 POST with the same Idempotency-Key).', request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    corsFor(request, reply);
    return reply
      .code(404)
      .type('application/json')
      .send(errorBody('resource_missing', `Unrecognized request URL (${request.method} ${request.url.split('?')[0]}).`, request.id));
  });
}
