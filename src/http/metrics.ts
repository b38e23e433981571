// GET /metrics: Prometheus text for the operator, answered only to "Authorization: Bearer
// <OPERATOR_TOKEN>". Each app has its own Registry (never prom-client's global one), so several
// apps in one process (tests) do not mix their numbers. What it holds: request durations by route
// pattern and status, the database connections, background work by kind, and Node's process
// metrics. See docs/architecture.md "Metrics".
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { DomainError } from '../errors.js';
import type { CounterSource, WorkStatsSource } from '../contracts/background.js';
import { backgroundWorkStats } from '../workers/stats.js';
import { bearerToken } from './api-auth.js';
import { RequestDurations } from './request-durations.js';
import type { App, Services } from '../contracts/wiring.js';

/** The route label of a request no route matched (404s, URLs the router refused). */
export const UNMATCHED_ROUTE = 'unmatched';

export class AppMetrics {
  readonly registry = new Registry();
  private readonly requestDuration = new RequestDurations(
    'http_request_duration_seconds',
    'Time from receiving a request to sending its answer, by method, route pattern and status.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  private readonly clientErrors = new Counter({
    name: 'http_client_errors_total',
    help: 'Requests refused before routing because they could not be parsed (431 header too large, 400 malformed, 408 too slow), by status.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly pool = new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections by state: total (open), idle, waiting (callers queued for one), max (the pool size). PGlite has one.',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  private readonly transactions = new Gauge({
    name: 'db_transactions_open',
    help: 'Database transactions open now (on PGlite, 1 means every other query waits).',
    registers: [this.registry],
  });
  private readonly work = {
    queued: this.workGauge('background_work_queued', 'Background work waiting to be done (due or not), by kind.'),
    inFlight: this.workGauge('background_work_in_flight', 'Background work a worker holds right now, by kind.'),
    failed: this.workGauge('background_work_failed', 'Background work whose last attempt failed (timers, retried) or that was given up (emails), by kind.'),
    oldestDueAge: this.workGauge('background_work_oldest_due_age_seconds', 'How long the longest-due work has waited past its due time, by kind.'),
  };
  private readonly workUp = new Gauge({
    name: 'background_work_stats_up',
    help: '1 when the background-work figures could be read from the database on this scrape, 0 when not.',
    registers: [this.registry],
  });

  private readonly stored: Array<{ source: CounterSource; counter: Counter<string> }>;

  constructor(
    private readonly services: Pick<Services, 'db' | 'clock'>,
    private readonly workStats: readonly WorkStatsSource[] = [],
    counters: readonly CounterSource[] = [],
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requestDuration.asMetric());
    this.stored = counters.map((source) => ({
      source,
      counter: new Counter({ name: source.name, help: source.help, labelNames: [source.labelName], registers: [this.registry] }),
    }));
  }

  private workGauge(name: string, help: string) {
    return new Gauge({ name, help, labelNames: ['kind'] as const, registers: [this.registry] });
  }

  observeRequest(request: FastifyRequest, reply: FastifyReply): void {
    // The route pattern (/v1/listings/:id), never the URL: the label set stays bounded.
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    this.requestDuration.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  }

  countClientError(status: number): void {
    this.clientErrors.inc({ status: String(status) });
  }

  /** Reads the database figures, then renders every metric. */
  async render(onStatsError: (error: unknown) => void = () => undefined): Promise<string> {
    const { db, clock } = this.services;
    const stats = db.stats();
    for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.pool.set({ state }, stats[state]);
    this.transactions.set(stats.transactionsOpen);
    for (const gauge of Object.values(this.work)) gauge.reset();
    try {
      for (const kind of await backgroundWorkStats(db, clock.nowMs(), this.workStats)) {
        this.work.queued.set({ kind: kind.kind }, kind.queued);
        this.work.inFlight.set({ kind: kind.kind }, kind.inFlight);
        this.work.failed.set({ kind: kind.kind }, kind.failed);
        this.work.oldestDueAge.set({ kind: kind.kind }, kind.oldestDueAgeSeconds);
      }
      for (const { source, counter } of this.stored) {
        const rows = await source.read(db);
        counter.reset();
        for (const row of rows) counter.inc({ [source.labelName]: row.label }, row.value);
      }
      this.workUp.set(1);
    } catch (error) {
      // The database is down or slow: the process metrics still answer, and the gap is visible.
      this.workUp.set(0);
      onStatsError(error);
    }
    return this.registry.metrics();
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Registers the duration hook and GET /metrics (outside /v1: not rate-limited, not in the OpenAPI document). */
export function installMetrics(app: App, metrics: AppMetrics, services: Services): void {
  // A callback hook, not an async one: it runs on every request and has nothing to wait for.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request, reply);
    done();
  });
  const operatorToken = services.config.operatorToken;
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      onRequest: async (request) => {
        if (operatorToken === null) {
          throw new DomainError(
            'authentication_required',
            'Metrics need OPERATOR_TOKEN: start the service with it set, and scrape with "Authorization: Bearer <OPERATOR_TOKEN>".',
          );
        }
        const token = bearerToken(request);
        if (token === null) throw new DomainError('authentication_required', 'Authenticate with "Authorization: Bearer <OPERATOR_TOKEN>".');
        // Compared over digests, in constant time, so neither the token nor its length leaks.
        if (!timingSafeEqual(digest(token), digest(operatorToken))) {
          throw new DomainError('authentication_required', 'The operator token is not valid.');
        }
      },
    },
    async (request, reply) => {
      const text = await metrics.render((err) => request.log.warn({ err }, 'background work figures could not be read'));
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}
