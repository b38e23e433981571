// Category operations. Each owns its transaction, checks the
// rules and emits its events in the same transaction.
import type { Queryable, Tx } from '../../db/db.js';
import { mapUniqueViolations } from '../../db/pg-errors.js';
import { DomainError, errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { EMPTY_ATTRIBUTE_SCHEMA, findAttributeProblem, normalizeAttributeSchema } from './attributes.js';
import {
  CATEGORY_KEY_CONSTRAINT,
  insertCategory,
  lockCategory,
  lockCategoryTree,
  selectAncestorIds,
  selectCategories,
  selectCategory,
  selectCategoryKeyTaken,
  selectLiveListingAttributes,
  selectSubtreeIds,
  updateAttributeSchema,
  updateCategoryValues,
  type CategoryRow,
} from './queries.js';
import type {
  AttributeSchemaInput,
  AttributeSchemaValue,
  Category,
  CategoryFee,
  CreateCategoryBody,
  ListCategoriesQuery,
  UpdateCategoryBody,
} from './schemas.js';
import { canonicalSchema, serializeCategory } from './serialize.js';

/** Listings checked per page when a schema replacement is checked against them (docs/performance.md R7). */
const SCHEMA_CHECK_PAGE = 500;

export type { CategoryRow } from './queries.js';

export async function createCategory(ctx: OperationContext, body: CreateCategoryBody): Promise<Category> {
  const { scope } = ctx;
  const schema = body.attribute_schema
    ? normalizeAttributeSchema(body.attribute_schema, 'attribute_schema.attributes')
    : EMPTY_ATTRIBUTE_SCHEMA;
  // Two creates with the same key at once: the unique index decides, and the loser hears 409 too.
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const now = await modeNow(tx, ctx.clock, scope);
        const parentId = body.parent ?? null;
        if (parentId !== null) await requireCategory(tx, scope, parentId, 'parent');
        if (await selectCategoryKeyTaken(tx, scope, body.key)) throw keyTaken(body.key);
        const row = await insertCategory(tx, scope, {
          id: newId('category'),
          key: body.key,
          name: body.name,
          description: body.description ?? null,
          parent_id: parentId,
          attribute_schema: schema,
          fee: normalizeFee(body.fee),
          prohibited: body.prohibited ?? false,
          now,
        });
        const category = serializeCategory(row);
        await emitEvent(tx, scope, now, 'category.created', category);
        return category;
      }),
    { [CATEGORY_KEY_CONSTRAINT]: () => keyTaken(body.key) },
  );
}

export async function listCategories(ctx: OperationContext, query: ListCategoriesQuery): Promise<ListEnvelope<Category>> {
  const page = pageRequest(query, 'category');
  const rows = await selectCategories(ctx.db, ctx.scope, page);
  return toList(rows.map(serializeCategory), page.limit);
}

export async function retrieveCategory(ctx: OperationContext, id: string): Promise<Category> {
  return serializeCategory(await requireCategory(ctx.db, ctx.scope, id));
}

export async function updateCategory(ctx: OperationContext, id: string, body: UpdateCategoryBody): Promise<Category> {
  const { scope } = ctx;
  // The schema lists key so that sending it is answered with why it is refused, not as unknown.
  if (body.key !== undefined) throw errors.invalidRequest("A category's key is set at creation and cannot be changed.", 'key');
  return ctx.db.transaction(async (tx) => {
    const parentChanges = body.parent !== undefined;
    // Taken before the row lock, by every parent change, so moves are checked one at a time.
    if (parentChanges) await lockCategoryTree(tx, scope);
    const before = await requireCategoryForUpdate(tx, scope, id);
    const parentId = body.parent === undefined ? before.parent_id : body.parent;
    if (parentChanges && parentId !== null && parentId !== before.parent_id) {
      if (parentId === id) throw errors.invalidRequest('A category cannot be its own parent.', 'parent');
      await requireCategory(tx, scope, parentId, 'parent');
      if ((await selectAncestorIds(tx, scope, parentId)).includes(id)) {
        throw errors.invalidRequest(`'${parentId}' is a descendant of this category; making it the parent would make a cycle.`, 'parent');
      }
    }
    const values = {
      name: body.name ?? before.name,
      description: body.description === undefined ? before.description : body.description,
      parent_id: parentId,
      fee: body.fee === undefined ? before.fee : normalizeFee(body.fee),
      prohibited: body.prohibited ?? before.prohibited,
    };
    const previous = serializeCategory(before);
    const now = await modeNow(tx, ctx.clock, scope);
    const changed = previousAttributes(previous, { ...previous, ...serializeValues(values) });
    if (Object.keys(changed).length === 0) return previous;
    const category = serializeCategory(await updateCategoryValues(tx, scope, id, values, now));
    await emitEvent(tx, scope, now, 'category.updated', category, previousAttributes(previous, category));
    return category;
  });
}

export async function retrieveAttributeSchema(ctx: OperationContext, id: string): Promise<AttributeSchemaValue> {
  return serializeCategory(await requireCategory(ctx.db, ctx.scope, id)).attribute_schema;
}

/**
 * Replaces the attribute schema: refused with 409 schema_conflict when a
 * listing of the category that is not removed would no longer fit. The category row is locked
 * first, so a listing being created or updated in the category at the same time (which holds it
 * FOR SHARE) is checked against one schema or the other, never neither.
 */
export async function replaceAttributeSchema(ctx: OperationContext, id: string, body: AttributeSchemaInput): Promise<AttributeSchemaValue> {
  const { scope } = ctx;
  const schema = normalizeAttributeSchema(body);
  return ctx.db.transaction(async (tx) => {
    const before = await requireCategoryForUpdate(tx, scope, id);
    let after: string | null = null;
    for (;;) {
      const listings = await selectLiveListingAttributes(tx, scope, id, after, SCHEMA_CHECK_PAGE);
      for (const listing of listings) {
        const problem = findAttributeProblem(schema, listing.attributes);
        if (problem !== null) {
          throw new DomainError(
            'schema_conflict',
            `The listing ${listing.id} would no longer fit the schema (${problem.param}: ${problem.message}) ` +
              'Change or remove the listing first.',
          );
        }
      }
      if (listings.length < SCHEMA_CHECK_PAGE) break;
      after = listings[listings.length - 1]!.id;
    }
    const previous = canonicalSchema(before.attribute_schema);
    if (JSON.stringify(previous) === JSON.stringify(schema)) return previous;
    const now = await modeNow(tx, ctx.clock, scope);
    const category = serializeCategory(await updateAttributeSchema(tx, scope, id, schema, now));
    await emitEvent(tx, scope, now, 'category.updated', category, { attribute_schema: previous });
    return category.attribute_schema;
  });
}

/** A category of this marketplace and mode, or 404 (naming `param` when the id came in a field). */
export async function requireCategory(q: Queryable, scope: Scope, id: string, param?: string): Promise<CategoryRow> {
  const row = await selectCategory(q, scope, id);
  if (!row) throw errors.missing('category', id, param);
  return row;
}

/**
 * A category and its descendants, for filters that include them (search): the ids, the category's
 * own first; empty when the category is not of this marketplace and mode. A parent can never
 * make a cycle (contract 6), so the walk ends.
 */
export function findCategorySubtreeIds(q: Queryable, scope: Scope, id: string): Promise<string[]> {
  return selectSubtreeIds(q, scope, id);
}

/**
 * As requireCategory, share-locked for the rest of the transaction: for other modules' changes
 * that depend on the category (a listing checked against its schema and prohibited flag), so a
 * replacement of the schema at the same time is checked against them, or they against it.
 */
export async function requireCategoryForShare(tx: Tx, scope: Scope, id: string, param?: string): Promise<CategoryRow> {
  const row = await lockCategory(tx, scope, id, 'share');
  if (!row) throw errors.missing('category', id, param);
  return row;
}

async function requireCategoryForUpdate(tx: Tx, scope: Scope, id: string): Promise<CategoryRow> {
  const row = await lockCategory(tx, scope, id, 'update');
  if (!row) throw errors.missing('category', id);
  return row;
}

function normalizeFee(fee: CreateCategoryBody['fee']): CategoryFee | null {
  if (fee === undefined || fee === null) return null;
  return { percent_bps: fee.percent_bps ?? null, fixed_amount: fee.fixed_amount ?? null };
}

function serializeValues(values: { name: string; description: string | null; parent_id: string | null; fee: CategoryFee | null; prohibited: boolean }) {
  return { name: values.name, description: values.description, parent: values.parent_id, fee: values.fee, prohibited: values.prohibited };
}

function keyTaken(key: string): DomainError {
  return errors.exists(`A category with the key '${key}' already exists.`, 'key');
}
