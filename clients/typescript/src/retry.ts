// The client's fetch: every request goes through here, and a 429, a 5xx, a 409
// `idempotency_key_in_use` or a request that got no answer is sent again, the same request (so a
// POST keeps its Idempotency-Key: the service runs it at most once and replays its answer), after an
// exponential backoff with jitter, or after Retry-After when the service sent one.

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The first backoff; each next one doubles, up to maxDelayMs. Each wait is drawn from its upper half. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the answer (a 429 or 503) is returned as it is. */
  maxRetryAfterMs: number;
  /**
   * Whether a request that may change something (not GET or HEAD) is retried after a 5xx or no
   * answer: true where every write is safe to send again (the /v1 API: POSTs carry their
   * Idempotency-Key); false for the management API, where only a 429 (not run) is retried.
   */
  retryWrites?: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export type Fetch = (request: Request) => Promise<Response>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The backoff before retry number `attempt + 1`: exponential, capped, with jitter (so clients that failed together spread out). */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Whether an answer is worth sending the request again for. */
const isRead = (request: Request) => request.method === 'GET' || request.method === 'HEAD';

async function isRetryable(request: Request, response: Response, policy: RetryPolicy): Promise<boolean> {
  if (response.status === 429) return true;
  if (policy.retryWrites === false && !isRead(request)) return false;
  if (response.status >= 500) return true;
  if (response.status !== 409 || request.method !== 'POST') return false;
  // The same key is still running elsewhere (an earlier attempt whose answer was lost): its answer will be replayed.
  const body = (await response.clone().json().catch(() => null)) as { error?: { code?: unknown } } | null;
  return body?.error?.code === 'idempotency_key_in_use';
}

/** A fetch failure that a retry may cure: anything but the caller's own abort or timeout. */
function isRetryableFailure(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return name !== 'AbortError' && name !== 'TimeoutError';
}

export function retryingFetch(fetchImpl: Fetch, policy: RetryPolicy): Fetch {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.maxRetries;
      // A clone per attempt keeps the body readable for the next one; the last attempt sends the original.
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || !isRetryableFailure(error) || (policy.retryWrites === false && !isRead(request))) throw error;
        await sleep(backoffMs(policy, attempt));
        continue;
      }
      if (last || !(await isRetryable(request, response, policy))) return response;
      const asked = retryAfterMs(response.headers.get('Retry-After'), Date.now());
      if (asked !== null && asked > policy.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(Math.max(asked ?? 0, backoffMs(policy, attempt)));
    }
  };
}
