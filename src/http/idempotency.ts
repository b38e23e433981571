// Idempotency-Key on every /v1 POST.
//
// A key is claimed first in a short transaction of its own (a row naming its owner, the process,
// and its request), so a second request with the same key while the first runs gets 409
// idempotency_key_in_use. The handler then runs inside one outer transaction; the domain
// operation's own transaction joins it as a savepoint, and the serialized response is written to
// the key's row before COMMIT. So a retry after any failure either replays the committed result or
// runs anew: nothing half-done is remembered. 403/404/409 answers are remembered too (the same
// request would get the same answer); 400s and 5xx are not: the key is released so the corrected
// or retried request can run.
//
// A claim lasts as long as its owner process lives (src/http/claim-owners.ts): a retry after the
// process died runs at once, never while it lives, however long its request takes. The answer is
// written only where the row still names this request (a fence), so a request whose claim was
// taken over all the same (its owner's lock lost with its connection) rolls back instead.
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Clock } from '../clock.js';
import type { ClaimOwners } from './claim-owners.js';
import type { Db, Queryable } from '../db/db.js';
import { DomainError } from '../errors.js';
import { canonicalJson } from '../json.js';
import type { Scope } from '../scope.js';
import { decryptSecret, encryptSecret, sha256Hex } from '../secrets.js';
import { errorBody, STATUS_BY_CODE } from './error-statuses.js';
import { toDomainError } from './error-handler.js';
import type { IdempotencyFaults } from '../contracts/wiring.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * Written on every claim for processes of a version before owners (they read only this): a claim
 * with an owner lasts as long as the owner, whatever this says.
 */
const LOCK_MS = 60_000;

type Claim = { kind: 'run' } | { kind: 'replay'; status: number; body: string; requestId: string | null };

interface KeyRow {
  fingerprint: string;
  claimed_by: number | null;
  locked_until: Date | null;
  response_status: number | null;
  response_body: string | null;
  request_id: string | null;
  created_at: Date;
}

export function fingerprint(request: FastifyRequest): string {
  return sha256Hex(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`);
}

interface Claimant {
  owners: ClaimOwners;
  /** This process's owner id (null on PGlite). */
  ownerId: number | null;
  requestId: string;
}

async function claim(db: Db, scope: Scope, key: string, print: string, nowMs: number, by: Claimant): Promise<Claim> {
  return db.transaction(async (tx) => {
    const params = [scope.marketplaceId, scope.mode, key];
    const inserted = await tx.query(
      `INSERT INTO idempotency_keys (marketplace_id, mode, key, fingerprint, locked_until, created_at, request_id, claimed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING key`,
      [...params, print, new Date(nowMs + LOCK_MS), new Date(nowMs), by.requestId, by.ownerId],
    );
    if (inserted.length === 1) return { kind: 'run' };
    const [row] = await tx.query<KeyRow>(
      `SELECT fingerprint, claimed_by, locked_until, response_status, response_body, request_id, created_at FROM idempotency_keys
        WHERE marketplace_id = $1 AND mode = $2 AND key = $3 FOR UPDATE`,
      params,
    );
    if (!row) throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress.');
    const expired = row.created_at.getTime() <= nowMs - IDEMPOTENCY_RETENTION_MS;
    const abandoned = row.response_status === null && !(await by.owners.isAlive(tx, row, nowMs));
    if (expired || abandoned) {
      await tx.query(
        `UPDATE idempotency_keys SET fingerprint = $4, locked_until = $5, response_status = NULL, response_body = NULL,
                created_at = CASE WHEN $7 THEN $6 ELSE created_at END, request_id = $8, claimed_by = $9
          WHERE marketplace_id = $1 AND mode = $2 AND key = $3`,
        [...params, print, new Date(nowMs + LOCK_MS), new Date(nowMs), expired, by.requestId, by.ownerId],
      );
      return { kind: 'run' };
    }
    if (row.fingerprint !== print) {
      throw new DomainError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request (method, path or body).',
      );
    }
    if (row.response_status === null) {
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly.');
    }
    return { kind: 'replay', status: row.response_status, body: row.response_body ?? '', requestId: row.request_id };
  });
}

/**
 * A replay is a new request: its Request-Id is its own, and a replayed error body names the same
 * id in `request_id`, so header and body agree. Original-Request names the request that ran.
 */
function sendReplay(reply: FastifyReply, requestId: string, found: Extract<Claim, { kind: 'replay' }>) {
  let body = found.body;
  let original = found.requestId;
  if (found.status >= 400) {
    const parsed = JSON.parse(body) as { error?: { request_id?: unknown } };
    if (parsed.error && typeof parsed.error.request_id === 'string') {
      // Keys stored before request_id was kept still name the first request in their body.
      original ??= parsed.error.request_id;
      parsed.error.request_id = requestId;
      body = JSON.stringify(parsed);
    }
  }
  if (original !== null) reply.header('Original-Request', original);
  return reply.code(found.status).header('Idempotent-Replayed', 'true').type('application/json').send(body);
}

/**
 * Writes the answer to the claim, if the claim is still this request's; returns false when it is
 * not (taken over as abandoned). In the handler's transaction, the row's lock then waits for no
 * one long: a takeover commits in its own short transaction.
 */
async function store(q: Queryable, scope: Scope, key: string, requestId: string, status: number, body: unknown): Promise<boolean> {
  const rows = await q.query(
    `UPDATE idempotency_keys SET response_status = $5, response_body = $6, locked_until = NULL
      WHERE marketplace_id = $1 AND mode = $2 AND key = $3 AND request_id = $4 AND response_status IS NULL RETURNING key`,
    [scope.marketplaceId, scope.mode, key, requestId, status, body],
  );
  return rows.length === 1;
}

async function release(db: Db, scope: Scope, key: string, requestId: string): Promise<void> {
  await db.query(
    'DELETE FROM idempotency_keys WHERE marketplace_id = $1 AND mode = $2 AND key = $3 AND request_id = $4 AND response_status IS NULL',
    [scope.marketplaceId, scope.mode, key, requestId],
  );
}

function claimTakenOver(): DomainError {
  return new DomainError(
    'idempotency_key_in_use',
    "This request's claim on its Idempotency-Key was taken over by a retry (this process lost its database connection); nothing was done.",
  );
}

function readKey(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] ?? '' : header;
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new DomainError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', 'Idempotency-Key');
  }
  return key;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer holds a secret shown once (a webhook signing secret): its stored copy is encrypted
     * with SECRET_KEY, bound to the key's row, and decrypted only to replay it.
     */
    sealStoredAnswer?: boolean;
  }
}

const SEALED = 'sealed:';

function sealContext(scope: Scope, key: string): string {
  return `idempotency:${scope.marketplaceId}:${scope.mode}:${key}`;
}

function sealed<T>(request: FastifyRequest, scope: Scope, key: string, body: T): T | string {
  if (!request.routeOptions.config.sealStoredAnswer || typeof body !== 'string') return body;
  return SEALED + encryptSecret(request.ctx.config.secretKey, body, sealContext(scope, key));
}

function unsealed(request: FastifyRequest, scope: Scope, key: string, body: string): string {
  return body.startsWith(SEALED) ? decryptSecret(request.ctx.config.secretKey, body.slice(SEALED.length), sealContext(scope, key)) : body;
}

export interface IdempotencyServices {
  db: Db;
  clock: Clock;
  owners: ClaimOwners;
  faults?: IdempotencyFaults;
}

/** Wraps a POST handler so it honours Idempotency-Key. */
export function idempotent(handler: RouteHandlerMethod, services: IdempotencyServices): RouteHandlerMethod {
  const { db, clock, owners, faults = {} } = services;
  return async function idempotentHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const key = readKey(request);
    if (key === null) return handler.call(this as never, request, reply);
    const scope = request.api.scope;
    const claimant = { owners, ownerId: await owners.ownId(), requestId: request.id };
    const found = await claim(db, scope, key, fingerprint(request), clock.nowMs(), claimant);
    if (found.kind === 'replay') return sendReplay(reply, request.id, { ...found, body: unsealed(request, scope, key, found.body) });
    let committed = false;
    try {
      const body = await db.transaction(async (tx) => {
        const payload = await runCapturingSend(handler, this, request, reply);
        const serialized = typeof payload === 'string' ? payload : reply.serialize(payload);
        if (!(await store(tx, scope, key, request.id, reply.statusCode, sealed(request, scope, key, serialized)))) throw claimTakenOver();
        return serialized;
      });
      committed = true;
      faults.afterCommit?.(request);
      return reply.type('application/json').send(body);
    } catch (error) {
      if (!committed) await settleFailure(db, scope, key, request, error);
      throw error;
    }
  };
}

/**
 * Runs the handler with reply.send() held back: the answer must leave after COMMIT, from the
 * wrapper, with the stored body. A handler that calls `reply.code(201).send(x)` instead of
 * returning x would otherwise answer before its change was durable, and leave nothing to replay.
 */
async function runCapturingSend(handler: RouteHandlerMethod, self: unknown, request: FastifyRequest, reply: FastifyReply) {
  let sent: { payload: unknown } | null = null;
  const holder = reply as unknown as { send: (payload?: unknown) => FastifyReply };
  holder.send = (payload?: unknown) => {
    sent = { payload };
    return reply;
  };
  try {
    const returned: unknown = await handler.call(self as never, request, reply);
    return sent === null ? returned : (sent as { payload: unknown }).payload;
  } finally {
    // Back to the prototype's send, for the wrapper's own answer and the error handler's.
    delete (holder as { send?: unknown }).send;
  }
}

async function settleFailure(db: Db, scope: Scope, key: string, request: FastifyRequest, error: unknown) {
  const domain = error instanceof Error ? toDomainError(error) : null;
  const status = domain ? STATUS_BY_CODE[domain.code] : 500;
  if (domain && status !== 400 && status < 500 && domain.code !== 'rate_limited') {
    await store(db, scope, key, request.id, status, JSON.stringify(errorBody(domain.code, domain.message, request.id, domain.param)));
  } else {
    await release(db, scope, key, request.id);
  }
}

/** Deletes keys older than the retention period; run by the worker. */
export async function purgeIdempotencyKeys(db: Db, nowMs: number): Promise<number> {
  const rows = await db.query('DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING key', [
    new Date(nowMs - IDEMPOTENCY_RETENTION_MS),
  ]);
  return rows.length;
}
