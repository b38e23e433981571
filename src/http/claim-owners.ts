// Who holds an Idempotency-Key's claim, and whether it is still alive (docs/decisions/foundation.md, "A dead
// request's claim"). A claim whose owner is dead is abandoned: the next request with its key runs.
//
// PostgreSQL, where several API processes share the keys: each process that claims keys is an
// owner, with an id from a sequence (never given twice), and holds the session-level advisory lock
// (OWNER_LOCK, id) on a connection of its own while it lives. A process that dies loses that
// connection and PostgreSQL drops the lock at once (a vanished host: after the keepalive silence,
// src/db/drivers.ts). A claim's owner is dead when its lock is free; the check takes it shared, for
// the checking transaction only, so checks never wait for one another and an owner, which holds it
// exclusively, always fails them. Claims without an owner (made before migration 0020) lapse at
// locked_until as they did.
//
// PGlite: one process owns the data directory, so every claim left in it was made before this
// start and is abandoned when the process opens it (abandonEarlierClaims); any claim found later
// is this process's own, alive.
import type { Db, HeldLock, Tx } from '../db/db.js';

/** The advisory lock namespace of claim owners (migrations use 727_310_001, job claims 727_310_002). */
export const OWNER_LOCK = 727_310_003;

export interface ClaimRow {
  claimed_by: number | null;
  locked_until: Date | null;
}

export interface ClaimOwners {
  /** This process's owner id, once its lock is held; null on PGlite. */
  ownId(): Promise<number | null>;
  /** Whether the unanswered claim's owner still lives; runs in the claiming transaction. */
  isAlive(tx: Tx, claim: ClaimRow, nowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The owner is made on the first claim (a process that serves no keyed POST holds no connection
 * for it). A first start that fails is tried again by the next claim.
 */
export function claimOwners(db: Db, onError: (error: unknown) => void = () => undefined): ClaimOwners {
  const holdLock = db.holdLock;
  if (db.kind === 'pglite' || !holdLock) {
    return { ownId: async () => null, isAlive: async () => true, close: async () => undefined };
  }
  let closed = false;
  let starting: Promise<{ id: number; held: HeldLock }> | null = null;
  const start = async () => {
    const [row] = await db.query<{ id: number }>("SELECT nextval('idempotency_claim_owners')::int AS id");
    const id = row!.id;
    const held = await holdLock(OWNER_LOCK, id, { onError });
    if (closed) await held.release();
    return { id, held };
  };
  return {
    async ownId() {
      if (closed) throw new Error('the claim owner is closed');
      starting ??= start().catch((error: unknown) => {
        starting = null;
        throw error;
      });
      return (await starting).id;
    },
    async isAlive(tx, claim, nowMs) {
      if (claim.claimed_by === null) return (claim.locked_until?.getTime() ?? 0) > nowMs;
      const [row] = await tx.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock_shared($1, $2) AS free', [OWNER_LOCK, claim.claimed_by]);
      return !row!.free;
    },
    async close() {
      closed = true;
      const owner = await starting?.catch(() => null);
      await owner?.held.release();
    },
  };
}

/** PGlite, at the start of the process that opened the data directory: see the file's comment. */
export async function abandonEarlierClaims(db: Db): Promise<number> {
  const rows = await db.query('DELETE FROM idempotency_keys WHERE response_status IS NULL RETURNING key');
  // Answers an earlier process stored but did not finish completing (completeAnswer): a retry
  // completes them at once rather than after their lock runs out.
  await db.query("UPDATE idempotency_keys SET locked_until = 'epoch' WHERE response_status IS NOT NULL AND locked_until IS NOT NULL");
  return rows.length;
}
