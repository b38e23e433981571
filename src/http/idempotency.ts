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
//
// Some answers hold what is made only after the COMMIT (a checkout's `payment_url`: the processor
// makes the payment page in the start call, which runs after the COMMIT, never inside a
// transaction). Such a route names `completeAnswer`: the answer stored with the change is kept
// "completing" (response set, locked_until still set), the after-commit work runs, the answer is
// completed and stored again, final, and that is what is sent. A retry meanwhile gets 409
// idempotency_key_in_use while the first request's process lives; once it is gone, the retry
// completes the stored answer from what is there now (docs/requests.md).
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Clock } from '../clock.js';
import type { ClaimOwners } from './claim-owners.js';
import type { Db, Queryable } from '../db/db.js';
import { DomainError } from '../errors.js';
import { canonicalJson } from '../json.js';
import type { Scope } from '../scope.js';
import { decryptSecret, encryptSecret, sha256Hex } from '../secrets.js';
import { errorBody } from './error-statuses.js';
import { toDomainError } from './error-handler.js';
import type { ErrorStatuses, IdempotencyFaults } from '../contracts/wiring.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * Written on every claim for processes of a version before owners (they read only this): a claim
 * with an owner lasts as long as the owner, whatever this says.
 */
const LOCK_MS = 60_000;

type Claim = { kind: 'run' } | { kind: 'replay'; status: number; body: string; requestId: string | null; completing: boolean };

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
    // An answer stored before the after-commit work it waits for (completeAnswer): its request
    // finishes it, unless that request's process is gone (or, without owners, its lock ran out).
    const completing = row.locked_until !== null;
    if (completing && (await by.owners.isAlive(tx, row, nowMs)) && row.locked_until!.getTime() > nowMs) {
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is finishing its answer; retry shortly.');
    }
    return { kind: 'replay', status: row.response_status, body: row.response_body ?? '', requestId: row.request_id, completing };
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
async function store(q: Queryable, scope: Scope, key: string, requestId: string, status: number, body: unknown, completing = false): Promise<boolean> {
  // A completing answer keeps its lock (locked_until) until completeAnswer's final copy replaces it.
  const rows = await q.query(
    `UPDATE idempotency_keys SET response_status = $5, response_body = $6, locked_until = CASE WHEN $7 THEN locked_until ELSE NULL END
      WHERE marketplace_id = $1 AND mode = $2 AND key = $3 AND request_id = $4 AND response_status IS NULL RETURNING key`,
    [scope.marketplaceId, scope.mode, key, requestId, status, body, completing],
  );
  return rows.length === 1;
}

/** The completed answer replaces the completing one (once: a second completer changes nothing). */
async function storeCompleted(q: Queryable, scope: Scope, key: string, body: unknown): Promise<void> {
  await q.query(
    `UPDATE idempotency_keys SET response_body = $4, locked_until = NULL
      WHERE marketplace_id = $1 AND mode = $2 AND key = $3 AND response_status IS NOT NULL AND locked_until IS NOT NULL`,
    [scope.marketplaceId, scope.mode, key, body],
  );
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
    /**
     * Fills the fields of a success answer that only the work after the COMMIT makes (the
     * processor's payment page): given the answer, answers it completed. Runs after the COMMIT and
     * its after-commit work, under an Idempotency-Key (without one the operation answers after its
     * own COMMIT, complete already).
     */
    completeAnswer?: (request: FastifyRequest, answer: unknown) => Promise<unknown>;
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
  /** Every error code with its status (the wiring's): a refusal's answer is stored with it. */
  errorStatuses: ErrorStatuses;
}

/** Wraps a POST handler so it honours Idempotency-Key. */
export function idempotent(handler: RouteHandlerMethod, services: IdempotencyServices): RouteHandlerMethod {
  const { db, clock, owners, faults = {}, errorStatuses } = services;
  return async function idempotentHandler(this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const key = readKey(request);
    if (key === null) return handler.call(this as never, request, reply);
    const scope = request.api.scope;
    const claimant = { owners, ownerId: await owners.ownId(), requestId: request.id };
    const found = await claim(db, scope, key, fingerprint(request), clock.nowMs(), claimant);
    if (found.kind === 'replay') {
      let body = unsealed(request, scope, key, found.body);
      if (found.completing) body = await completeStored(db, request, reply, scope, key, found.status, body);
      return sendReplay(reply, request.id, { ...found, body });
    }
    let committed = false;
    try {
      let completing = false;
      let body = await db.transaction(async (tx) => {
        const payload = await runCapturingSend(handler, this, request, reply);
        const serialized = typeof payload === 'string' ? payload : (reply.serialize(payload) as string);
        completing = request.routeOptions.config.completeAnswer !== undefined && reply.statusCode < 300;
        const stored = sealed(request, scope, key, serialized);
        if (!(await store(tx, scope, key, request.id, reply.statusCode, stored, completing))) throw claimTakenOver();
        return serialized;
      });
      committed = true;
      // The transaction's after-commit work (the processor's start call) has run by now.
      if (completing) body = await completeStored(db, request, reply, scope, key, reply.statusCode, body);
      faults.afterCommit?.(request);
      return reply.type('application/json').send(body);
    } catch (error) {
      if (!committed) await settleFailure(db, errorStatuses, scope, key, request, error);
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

/**
 * Completes a stored answer (completeAnswer) and stores the result as final. Should completing
 * fail (the database went away), the stored answer is made final as it is, so a retry replays it
 * rather than waiting on a claim no one will finish; the failure is logged.
 */
async function completeStored(db: Db, request: FastifyRequest, reply: FastifyReply, scope: Scope, key: string, status: number, body: string): Promise<string> {
  const complete = request.routeOptions.config.completeAnswer;
  let completed = body;
  try {
    if (complete !== undefined && status < 300) {
      reply.code(status);
      completed = reply.serialize(await complete(request, JSON.parse(body))) as string;
    }
  } catch (err) {
    request.log.error({ err }, 'idempotency: completing the stored answer failed; it stays as stored');
    completed = body;
  }
  await storeCompleted(db, scope, key, sealed(request, scope, key, completed));
  return completed;
}

async function settleFailure(db: Db, statuses: ErrorStatuses, scope: Scope, key: string, request: FastifyRequest, error: unknown) {
  const domain = error instanceof Error ? toDomainError(error) : null;
  const status = domain ? statuses[domain.code] : 500;
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
