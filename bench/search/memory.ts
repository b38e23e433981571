// Loads the search catalogue (listings with their TOAST and indexes, categories with theirs) into
// the server's shared buffers before a size is measured, and states the setting: a production
// server holds its hot catalogue in memory (docs/deployment.md, "Memory"), so the bench measures
// that state rather than whichever pages earlier work left in the cache.
import type { Db } from '../../src/db/db.js';

const CATALOGUE_TABLES = ['listings', 'categories'];

export interface CatalogueMemory {
  sharedBuffersBytes: number;
  catalogueBytes: number;
  fits: boolean;
  prewarmedBlocks: number;
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024)).toLocaleString('en')} MB`;

export async function prewarmCatalogue(db: Db, log: (line: string) => void): Promise<CatalogueMemory> {
  const [setting] = await db.query<{ shared_buffers: string; bytes: string }>(
    `SELECT current_setting('shared_buffers') AS shared_buffers, pg_size_bytes(current_setting('shared_buffers'))::text AS bytes`,
  );
  // The tables, their TOAST tables, and every index of either.
  const relations = await db.query<{ oid: string; name: string; kind: string; bytes: string }>(
    `WITH base AS (SELECT oid, reltoastrelid FROM pg_class WHERE relname = ANY($1::text[]) AND relnamespace = 'public'::regnamespace AND relkind = 'r'),
          tables AS (SELECT oid FROM base UNION ALL SELECT reltoastrelid FROM base WHERE reltoastrelid <> 0)
     SELECT c.oid::text, c.relname AS name, c.relkind::text AS kind, pg_relation_size(c.oid)::text AS bytes FROM pg_class c
      WHERE c.oid IN (SELECT oid FROM tables) OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM tables))
      ORDER BY pg_relation_size(c.oid) DESC`,
    [CATALOGUE_TABLES],
  );
  const sharedBuffersBytes = Number(setting!.bytes);
  const catalogueBytes = relations.reduce((sum, r) => sum + Number(r.bytes), 0);
  const fits = catalogueBytes < sharedBuffersBytes;
  log(`  shared_buffers ${setting!.shared_buffers} (${mb(sharedBuffersBytes)}); catalogue ${mb(catalogueBytes)} (listings, categories, their TOAST and ${relations.filter((r) => r.kind === 'i').length} indexes)`);
  if (!fits) {
    log(`  WARNING: the catalogue does not fit in shared_buffers: plans read pages from the OS cache or the disk, and the figures measure that, not search (docs/deployment.md, "Memory")`);
  }
  let prewarmedBlocks = 0;
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    for (const relation of relations) {
      const [row] = await db.query<{ blocks: string }>('SELECT pg_prewarm($1::oid::regclass)::text AS blocks', [relation.oid]);
      prewarmedBlocks += Number(row?.blocks ?? 0);
    }
    const [block] = await db.query<{ size: string }>(`SELECT current_setting('block_size') AS size`);
    log(`  prewarmed ${prewarmedBlocks.toLocaleString('en')} blocks (${mb(prewarmedBlocks * Number(block!.size))}) into shared buffers`);
  } catch (error) {
    log(`  WARNING: pg_prewarm is not available (${(error as Error).message}): the catalogue's pages are loaded only as the bench reads them`);
  }
  return { sharedBuffersBytes, catalogueBytes, fits, prewarmedBlocks };
}
