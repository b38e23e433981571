// The HTTP statuses of the kernel's error codes, and the envelope every error answers with. A
// module's codes carry their statuses in its manifest; the composition root assembles both into
// the one table every answer reads (the wiring's errorStatuses, src/app/wiring.ts).
import type { ErrorCode, KernelErrorCode } from '../errors.js';

export const STATUS_BY_CODE: Readonly<Record<KernelErrorCode, number>> = {
  invalid_request: 400,
  api_key_missing: 401,
  api_key_invalid: 401,
  authentication_required: 401,
  secret_key_required: 403,
  marketplace_read_only: 403,
  test_mode_only: 403,
  seller_not_verified: 403,
  seller_suspended: 403,
  seller_payouts_not_enabled: 403,
  processor_not_connected: 403,
  prohibited_content: 403,
  category_prohibited: 403,
  self_order: 403,
  actor_not_party: 403,
  actor_not_permitted: 403,
  permission_denied: 403,
  url_signature_invalid: 403,
  url_expired: 403,
  resource_missing: 404,
  invalid_state: 409,
  quantity_unavailable: 409,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  resource_exists: 409,
  limit_exceeded: 409,
  request_timeout: 408,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  request_header_too_large: 431,
  internal_error: 500,
  processor_error: 502,
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; param?: string; request_id: string };
}

export function errorBody(code: ErrorCode, message: string, requestId: string, param?: string): ErrorBody {
  return { error: { code, message, ...(param !== undefined ? { param } : {}), request_id: requestId } };
}
