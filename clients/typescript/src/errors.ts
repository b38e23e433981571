// The errors the client throws: MarketplaceError for every answer that is not a success (the API's
// error envelope, interface 7.1) and for a request that got no answer; WebhookSignatureError when
// a webhook's signature does not check.

/** What kind of failure, from the status (the envelope's `code` says which one exactly). */
export type MarketplaceErrorType =
  | 'invalid_request_error' // 400, 404 and any other 4xx not below: fix the request
  | 'authentication_error' // 401: no key, or not a valid one
  | 'permission_error' // 403: the key or a rule of the marketplace forbids it
  | 'conflict_error' // 409: the object's state, or an Idempotency-Key used for another request
  | 'rate_limit_error' // 429: still limited after the client's retries
  | 'api_error' // 5xx: still failing after the client's retries
  | 'connection_error'; // no answer at all (network, DNS, refused), after the client's retries

/** The body of every error answer (interface 7.1). */
export interface ErrorEnvelope {
  error: { code: string; message: string; param?: string; request_id: string };
}

export function errorTypeOf(status: number): MarketplaceErrorType {
  if (status === 0) return 'connection_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export class MarketplaceError extends Error {
  override readonly name = 'MarketplaceError';
  readonly type: MarketplaceErrorType;
  /** The envelope's code (`resource_missing`, `invalid_state`, …); `network_error` when there was no answer. */
  readonly code: string;
  /** The field at fault (`price.currency`), when the API named one. */
  readonly param: string | null;
  /** The HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The request's id (`req_…`, the `Request-Id` header): quote it when asking for help. */
  readonly requestId: string | null;

  constructor(init: { code: string; message: string; param?: string | null; status: number; requestId?: string | null; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.type = errorTypeOf(init.status);
    this.code = init.code;
    this.param = init.param ?? null;
    this.status = init.status;
    this.requestId = init.requestId ?? null;
  }

  /** The error of an answer that is not a success: its envelope, or what the status says when it has none. */
  static fromResponse(response: Response, body: unknown): MarketplaceError {
    const envelope = isEnvelope(body) ? body.error : null;
    return new MarketplaceError({
      code: envelope?.code ?? `http_status_${response.status}`,
      message: envelope?.message ?? `The service answered ${response.status} without an error envelope.`,
      param: envelope?.param ?? null,
      status: response.status,
      requestId: envelope?.request_id ?? response.headers.get('Request-Id'),
    });
  }

  /** A request that got no answer (after the client's retries). */
  static fromNetwork(cause: unknown): MarketplaceError {
    const message = cause instanceof Error ? cause.message : String(cause);
    return new MarketplaceError({ code: 'network_error', message: `The service could not be reached: ${message}`, status: 0, cause });
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** Why a webhook was refused. */
export type WebhookSignatureFailure =
  | 'missing_header' // no Service-Signature header
  | 'malformed_header' // no `t=` integer, or no `v1=` of 64 hex digits
  | 'timestamp_outside_tolerance' // `t` is too far from this clock (a replayed or delayed delivery)
  | 'no_matching_signature' // no `v1` is the HMAC of this body with this secret (tampered, or another secret)
  | 'invalid_payload'; // the signature checks but the body is not an event

export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';

  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}
