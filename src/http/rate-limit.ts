// Token bucket per API key: refills at the mode's rate_limit_per_second, holds twice
// that. In memory for one process; in Redis when REDIS_URL is set, so API processes share buckets.
import { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { RateDecision, RateLimiter } from '../contracts/wiring.js';

function retryAfter(tokens: number, rate: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / rate));
}

/** What every allowed request is answered, shared: nothing is allocated for it. */
const ALLOWED: RateDecision = Object.freeze({ allowed: true, retryAfterSeconds: 0 });

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(private readonly clock: Clock) {}

  /** Synchronous: the auth hook then answers a cached key without waiting on a promise. */
  consume(bucket: string, rate: number): RateDecision {
    const now = this.clock.nowMs();
    const capacity = 2 * rate;
    let state = this.buckets.get(bucket);
    if (state === undefined) {
      state = { tokens: capacity, atMs: now };
      this.buckets.set(bucket, state);
    }
    state.tokens = Math.min(capacity, state.tokens + (Math.max(0, now - state.atMs) / 1000) * rate);
    state.atMs = now;
    if (state.tokens >= 1) {
      state.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterSeconds: retryAfter(state.tokens, rate) };
  }

  async close(): Promise<void> {}
}

// One script (docs/performance.md R6): refill, take a token if there is one, store, and let idle buckets expire.
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
if now > at then tokens = math.min(capacity, tokens + (now - at) / 1000 * rate) end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {allowed, tostring(tokens)}
`;

type RedisWithTake = Redis & {
  takeToken(key: string, rate: number, capacity: number, now: number): Promise<[number, string]>;
};

/** How long the first requests wait for Redis at start before failing open. */
const FIRST_CONNECTION_WAIT_MS = 1_000;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithTake;
  // Without the offline queue a command sent before the connection is ready fails at once, so
  // every request of a freshly started process would fail open and cost no token. The first
  // requests wait (briefly) for the connection instead.
  private readonly firstConnection: Promise<void>;
  private connecting = true;

  constructor(
    url: string,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    private readonly prefix = 'mkt:rl:',
  ) {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    redis.on('error', onError);
    redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TAKE_TOKEN });
    this.redis = redis as RedisWithTake;
    this.firstConnection = new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.connecting = false;
        resolve();
      };
      const timer = setTimeout(done, FIRST_CONNECTION_WAIT_MS);
      timer.unref();
      redis.once('ready', done);
    });
  }

  async consume(bucket: string, rate: number): Promise<RateDecision> {
    if (this.connecting) await this.firstConnection;
    try {
      const [allowed, tokens] = await this.redis.takeToken(this.prefix + bucket, rate, 2 * rate, this.clock.nowMs());
      return { allowed: allowed === 1, retryAfterSeconds: allowed === 1 ? 0 : retryAfter(Number(tokens), rate) };
    } catch (error) {
      // Redis unreachable: the API keeps answering (fail open) rather than refusing every request.
      this.onError(error);
      return { allowed: true, retryAfterSeconds: 0 };
    }
  }

  /** Resolves once connected to Redis (before that, requests may fail open): for tests and probes. */
  async connected(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => this.redis.once('ready', () => resolve()));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
