// Domain errors: a stable code, a message for people, and the field at fault. They know nothing
// of HTTP; the statuses sit beside the codes' declarations (src/http/error-statuses.ts for the
// kernel's, each module's manifest for its own), assembled into one table by src/app/wiring.ts.

/**
 * The kernel's codes: the ones every layer answers (requests, keys, idempotency, states, limits).
 * A module's own codes are declared in its folder (its declarations.ts, listed by its manifest with
 * their statuses, merged into ModuleErrorCodes below by `declare module`); the composition root
 * assembles the one table of codes and statuses from both (src/app/wiring.ts).
 */
export const KERNEL_ERROR_CODES = [
  // 400
  'invalid_request',
  // 401
  'api_key_missing',
  'api_key_invalid',
  'authentication_required',
  // 403
  'secret_key_required',
  'marketplace_read_only',
  'test_mode_only',
  // (These seven are one module's each, but stay here: declared by their modules, they would come
  // after permission_denied and invalid_state in the enums of the operations that answer them.)
  'seller_not_verified',
  'seller_suspended',
  'seller_payouts_not_enabled',
  'processor_not_connected',
  'prohibited_content',
  'category_prohibited',
  'self_order',
  'actor_not_party',
  'actor_not_permitted',
  'permission_denied',
  'url_signature_invalid',
  'url_expired',
  // 404
  'resource_missing',
  // 409
  'invalid_state',
  'quantity_unavailable',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'resource_exists',
  // a documented bound per tenant (docs/configuration.md): the message names the limit and its setting
  'limit_exceeded',
  // 408 (before routing: the request came too slowly)
  'request_timeout',
  // 413, 415
  'request_too_large',
  'unsupported_media_type',
  // 429
  'rate_limited',
  // 431 (before routing: the request line and headers are too large)
  'request_header_too_large',
  // 500
  'internal_error',
  // 502: the payment processor refused what was asked or could not be reached (its message)
  'processor_error',
] as const;

export type KernelErrorCode = (typeof KERNEL_ERROR_CODES)[number];

/**
 * The codes the modules declare, by name. Empty here: each module's declarations.ts adds its own
 * (`declare module '../../errors.js' { interface ModuleErrorCodes extends ... {} }`), so a code is
 * a checked literal everywhere without a central list naming it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleErrorCodes {}

export type ErrorCode = KernelErrorCode | (keyof ModuleErrorCodes & string);

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** Extra detail for the edge (for example Retry-After seconds); never shown as is. */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Named factories, so call sites read as the rule they enforce. */
export const errors = {
  invalidRequest: (message: string, param?: string) => new DomainError('invalid_request', message, param),
  missing: (resource: string, id: string, param?: string) =>
    new DomainError('resource_missing', `No such ${resource}: '${id}'`, param),
  invalidState: (resource: string, state: string, action: string) =>
    new DomainError('invalid_state', `The ${resource} is ${state}; it cannot ${action}.`),
  exists: (message: string, param?: string) => new DomainError('resource_exists', message, param),
  /** A documented bound per tenant: names the limit and the setting that raises it. */
  limitExceeded: (what: string, limit: number, setting: string, advice: string, param?: string) =>
    new DomainError('limit_exceeded', `${what} are limited to ${limit} (the setting ${setting}); ${advice}.`, param),
  forbidden: (code: ErrorCode, message: string, param?: string) => new DomainError(code, message, param),
};
