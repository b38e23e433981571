// API key format, hashing, and the in-process cache that keeps key lookup off the database on the
// hot path. Entries live a few seconds (TTL below); a change made through this process (revoke,
// roll, settings, billing state) clears the cache at once, and other processes see it within the
// TTL. That bound is documented in docs/architecture.md.
import type { Clock } from '../clock.js';
import type { Db } from '../db/db.js';
import { randomBase62 } from '../ids.js';
import type { ApiKeyContext, BillingState, ReadOnlyReason, Viewer } from '../contracts/context.js';
import { withDefaults } from '../contracts/settings.js';
import type { ApiKeys } from '../contracts/wiring.js';
import type { Mode } from '../scope.js';
import { sha256Hex } from '../secrets.js';


export function generateApiKey(type: Viewer, mode: Mode): string {
  return `${type === 'secret' ? 'sk' : 'pk'}_${mode}_${randomBase62(40)}`;
}

/** The shape of every key generateApiKey makes: text of any other shape is no key of ours. */
const API_KEY_SHAPE = /^(?:sk|pk)_(?:test|live)_[0-9A-Za-z]{40}$/;

export function readOnlyReason(billingState: BillingState, mode: Mode): ReadOnlyReason | null {
  if (billingState === 'suspended') {
    return { reason: 'workspace_suspended', message: 'The workspace is suspended; both modes take reads only.' };
  }
  if (billingState === 'payment_missed' && mode === 'live') {
    return { reason: 'payment_missed', message: 'A payment was missed; live mode takes reads only until it is settled.' };
  }
  return null;
}

interface KeyRow {
  id: string;
  type: Viewer;
  mode: Mode;
  marketplace_id: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  settings: unknown;
  name: string;
  currency: string;
  marketplace_created_at: Date;
  workspace_id: string;
  billing_state: BillingState;
}

const MAX_ENTRIES = 10_000;

interface CacheEntry<T> {
  value: T;
  fetchedAtMs: number;
}

/** Adds an entry; when full, the oldest entry goes (a Map iterates in insertion order). */
function remember<T>(map: Map<string, CacheEntry<T>>, key: string, entry: CacheEntry<T>): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, entry);
}

function unexpired(context: ApiKeyContext, now: number): ApiKeyContext | null {
  return context.expiresAtMs !== null && context.expiresAtMs <= now ? null : context;
}

/**
 * Keys that exist and keys that do not are cached apart, each bounded: a flood of made-up keys
 * (which cost a lookup each, once per TTL) cannot push the real keys out and onto the database.
 * Text that is not even shaped like a key is refused without a lookup.
 */
export class ApiKeyCache implements ApiKeys {
  private readonly entries = new Map<string, CacheEntry<ApiKeyContext>>();
  private readonly unknown = new Map<string, CacheEntry<null>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
  ) {}

  /**
   * The key's context, or null when no usable key has that text. Synchronous when the cache
   * answers (every request of a key but one per TTL); a promise only when the database must.
   */
  lookup(key: string): ApiKeyContext | null | Promise<ApiKeyContext | null> {
    if (!API_KEY_SHAPE.test(key)) return null;
    // Keys carry 238 random bits: their SHA-256 is the lookup key, so raw keys are never held in memory.
    const hash = sha256Hex(key);
    const now = this.clock.nowMs();
    const known = this.entries.get(hash);
    if (known !== undefined && now - known.fetchedAtMs < this.ttlMs) return unexpired(known.value, now);
    const unknown = this.unknown.get(hash);
    if (unknown !== undefined && now - unknown.fetchedAtMs < this.ttlMs) return null;
    return this.load(hash).then((context) => {
      if (context) {
        this.unknown.delete(hash);
        remember(this.entries, hash, { value: context, fetchedAtMs: now });
      } else {
        this.entries.delete(hash);
        remember(this.unknown, hash, { value: null, fetchedAtMs: now });
      }
      return context && unexpired(context, now);
    });
  }

  /** Forget everything: called after any change to keys, settings, marketplaces or billing. */
  invalidate(): void {
    this.entries.clear();
    this.unknown.clear();
  }

  private async load(hash: string): Promise<ApiKeyContext | null> {
    const rows = await this.db.query<KeyRow>(
      `SELECT k.id, k.type, k.mode, k.marketplace_id, k.expires_at, k.revoked_at,
              mm.settings, m.name, m.currency, m.created_at AS marketplace_created_at,
              w.id AS workspace_id, w.billing_state
         FROM api_keys k
         JOIN marketplace_modes mm ON mm.marketplace_id = k.marketplace_id AND mm.mode = k.mode
         JOIN marketplaces m ON m.id = k.marketplace_id
         JOIN workspaces w ON w.id = m.workspace_id
        WHERE k.key_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row || row.revoked_at !== null) return null;
    return {
      keyId: row.id,
      keyType: row.type,
      expiresAtMs: row.expires_at ? row.expires_at.getTime() : null,
      scope: { marketplaceId: row.marketplace_id, mode: row.mode },
      workspaceId: row.workspace_id,
      billingState: row.billing_state,
      marketplace: {
        id: row.marketplace_id,
        name: row.name,
        currency: row.currency,
        created_at: row.marketplace_created_at.toISOString(),
      },
      settings: withDefaults(row.mode, row.settings),
      readOnly: readOnlyReason(row.billing_state, row.mode),
    };
  }
}
