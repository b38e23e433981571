// Category row → the API object (the Category schema of the OpenAPI document). jsonb keeps object keys in its own order,
// so nested objects are rebuilt here in the documented order: two equal values then also compare
// equal as JSON text (previous_attributes, the no-change check of a schema replacement).
import type { CategoryRow } from './queries.js';
import type { AttributeSchemaValue, Category, CategoryFee, StoredAttributeDefinition } from './schemas.js';

export function serializeCategory(row: CategoryRow): Category {
  return {
    object: 'category',
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    parent: row.parent_id,
    attribute_schema: canonicalSchema(row.attribute_schema),
    fee: canonicalFee(row.fee),
    prohibited: row.prohibited,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function canonicalSchema(schema: AttributeSchemaValue): AttributeSchemaValue {
  return {
    attributes: schema.attributes.map(
      (definition): StoredAttributeDefinition => ({
        key: definition.key,
        label: definition.label,
        type: definition.type,
        required: definition.required,
        options: definition.options,
        min: definition.min,
        max: definition.max,
        max_length: definition.max_length,
      }),
    ),
  };
}

export function canonicalFee(fee: CategoryFee | null): CategoryFee | null {
  return fee === null ? null : { percent_bps: fee.percent_bps, fixed_amount: fee.fixed_amount };
}
