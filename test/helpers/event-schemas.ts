// Every stored event against its envelope schema (src/modules/events/envelopes.ts, over the catalog
// the root assembles from every module's declarations, src/app/wiring.ts): the harness
// runs this when a test app closes, so every event the test suite emits is checked. A type's schema
// is compiled once per process, closed (an object schema that does not say otherwise refuses
// fields it does not declare), so a serializer that adds, drops or mistypes a field fails loudly.
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { Queryable } from '../../src/db/db.js';
import { MODULES } from '../../src/app/modules.js';
import { eventCatalogOf } from '../../src/app/wiring.js';
import { envelopesOf } from '../../src/modules/events/index.js';
import { isEventType, type EventType } from '../../src/contracts/events.js';

const CATALOG = eventCatalogOf(MODULES);
const ENVELOPES = envelopesOf(CATALOG);

/** A plain JSON copy without $id (each object schema appears in many envelopes), every undeclared additionalProperties false. */
export function closedSchema(schema: TSchema): unknown {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (node === null || typeof node !== 'object') return node;
    const { $id: _id, ...rest } = node as Record<string, unknown>;
    const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'examples' ? value : close(value)]));
    if (copy.type === 'object' && copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  return close(JSON.parse(JSON.stringify(schema)));
}

const MAX_ERRORS_SHOWN = 6;

let ajv: Ajv | null = null;
const validators = new Map<EventType, ValidateFunction>();

/** Compiled on first use, once per process (about 20 ms a type; a test file meets a few of them). */
function validatorOf(type: EventType): ValidateFunction {
  const known = validators.get(type);
  if (known) return known;
  if (ajv === null) {
    ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
    // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
    (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  }
  const validate = ajv.compile(closedSchema(ENVELOPES.get(type)!) as object);
  validators.set(type, validate);
  return validate;
}

interface StoredEvent {
  id: string;
  mode: string;
  type: string;
  data: unknown;
  created_at: Date;
}

/** What is wrong with the stored events of a database, one line per event; empty when all validate. */
export async function invalidStoredEvents(db: Queryable): Promise<string[]> {
  // The whole test database: every marketplace and mode a test made (test code, not a tenant's read).
  const rows = await db.query<StoredEvent>('SELECT id, mode, type, data, created_at FROM events ORDER BY id');
  const problems: string[] = [];
  for (const row of rows) {
    // emitEvent takes only the declared types (a compile-time check): another type is a test's
    // own row written with SQL (the HTTP fixtures' widget.created, test/http/fixtures.ts), not the service's.
    if (!isEventType(CATALOG, row.type)) continue;
    // The envelope as served (src/modules/events/serialize.ts), with the stored data.
    const event = { id: row.id, object: 'event', type: row.type, api_version: 'v1', created: row.created_at.toISOString(), livemode: row.mode === 'live', data: row.data };
    const validate = validatorOf(row.type);
    if (!validate(event)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      const shown = errors.slice(0, MAX_ERRORS_SHOWN).join('; ');
      problems.push(`${row.type} ${row.id}: ${shown}${errors.length > MAX_ERRORS_SHOWN ? `; and ${errors.length - MAX_ERRORS_SHOWN} more` : ''}`);
    }
  }
  return problems;
}

/** Throws naming every stored event that does not match its type's schema (the first 20 of them). */
export async function assertStoredEventsValid(db: Queryable): Promise<void> {
  const problems = await invalidStoredEvents(db);
  if (problems.length === 0) return;
  const more = problems.length > 20 ? `\n… and ${problems.length - 20} more` : '';
  throw new Error(`Stored events that do not match their type's schema (their modules' declarations.ts):\n${problems.slice(0, 20).join('\n')}${more}`);
}
