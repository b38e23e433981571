// The replay routes' own rate limit, per marketplace and mode (WEBHOOK_REPLAYS_PER_SECOND, single
// replays and replay_failed together), beside the key's limit that every /v1 request passes: the
// same token buckets (src/http/rate-limit.ts, in memory or shared in Redis), in a bucket of their
// own. A replay writes deliveries and sends requests to a URL the tenant chose; this keeps a
// tenant's loop of replays to a pace the service chose.
import type { preHandlerHookHandler } from 'fastify';
import type { Services } from '../../../contracts/wiring.js';
import { DomainError } from '../../../errors.js';

export function replayRateLimit(services: Services): preHandlerHookHandler {
  const rate = services.config.limits.webhookReplaysPerSecond;
  return async (request) => {
    const { scope } = request.ctx;
    const decision = await services.rateLimiter.consume(`webhook_replays:${scope.marketplaceId}:${scope.mode}`, rate);
    if (!decision.allowed) {
      throw new DomainError(
        'rate_limited',
        `Too many webhook replays in this mode (WEBHOOK_REPLAYS_PER_SECOND: ${rate} a second); wait Retry-After seconds.`,
        undefined,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    }
  };
}
