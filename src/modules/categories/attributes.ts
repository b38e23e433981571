// Attribute schemas and the check of a listing's attributes against one. Pure: no
// database, no clock. Values are always text; a definition's type says how the text must read.
import { errors } from '../../errors.js';
import type { AttributeSchemaInput, AttributeSchemaValue, StoredAttributeDefinition } from './schemas.js';

export const EMPTY_ATTRIBUTE_SCHEMA: AttributeSchemaValue = { attributes: [] };

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

/**
 * Checks what JSON Schema cannot (unique keys, options only and always for enum, bounds only
 * where they mean something, min ≤ max) and returns the schema with every field present.
 * `at` is the param of the definitions array: `attributes` for PUT, `attribute_schema.attributes` on create.
 */
export function normalizeAttributeSchema(input: AttributeSchemaInput, at = 'attributes'): AttributeSchemaValue {
  const seen = new Set<string>();
  const attributes = input.attributes.map((definition, index): StoredAttributeDefinition => {
    const param = (field: string) => `${at}[${index}].${field}`;
    if (seen.has(definition.key)) {
      throw errors.invalidRequest(`The attribute key '${definition.key}' is defined twice.`, param('key'));
    }
    seen.add(definition.key);
    const options = definition.options ?? null;
    const min = definition.min ?? null;
    const max = definition.max ?? null;
    const maxLength = definition.max_length ?? null;
    const numeric = definition.type === 'number' || definition.type === 'integer';
    if (definition.type === 'enum' && options === null) {
      throw errors.invalidRequest(`The enum attribute '${definition.key}' needs options.`, param('options'));
    }
    if (definition.type !== 'enum' && options !== null) {
      throw errors.invalidRequest(`options apply to enum attributes only; '${definition.key}' is ${definition.type}.`, param('options'));
    }
    if (!numeric && min !== null) {
      throw errors.invalidRequest(`min applies to number and integer attributes only; '${definition.key}' is ${definition.type}.`, param('min'));
    }
    if (!numeric && max !== null) {
      throw errors.invalidRequest(`max applies to number and integer attributes only; '${definition.key}' is ${definition.type}.`, param('max'));
    }
    if (min !== null && max !== null && min > max) {
      throw errors.invalidRequest(`max (${max}) is below min (${min}) for '${definition.key}'.`, param('max'));
    }
    if (definition.type !== 'string' && maxLength !== null) {
      throw errors.invalidRequest(`max_length applies to string attributes only; '${definition.key}' is ${definition.type}.`, param('max_length'));
    }
    return {
      key: definition.key,
      label: definition.label ?? null,
      type: definition.type,
      required: definition.required ?? false,
      options,
      min,
      max,
      max_length: maxLength,
    };
  });
  return { attributes };
}

export interface AttributeProblem {
  /** `attributes.<key>` */
  param: string;
  message: string;
}

/**
 * The first way `values` fails `schema`, or null when they fit. Keys the schema does not define
 * come first (in the object's order), then each definition in the schema's order.
 */
export function findAttributeProblem(schema: AttributeSchemaValue, values: Record<string, string>): AttributeProblem | null {
  const byKey = new Map(schema.attributes.map((definition) => [definition.key, definition]));
  for (const key of Object.keys(values)) {
    if (!byKey.has(key)) return { param: `attributes.${key}`, message: `The category does not define the attribute '${key}'.` };
  }
  for (const definition of schema.attributes) {
    const value = Object.hasOwn(values, definition.key) ? values[definition.key] : undefined;
    if (value === undefined || value.trim() === '') {
      if (definition.required) {
        return { param: `attributes.${definition.key}`, message: `The category requires the attribute '${definition.key}'.` };
      }
      if (value === undefined) continue;
      // An optional attribute sent blank is still a value of its type: blank text is a string
      // (accepted, within max_length), but not a number, an integer, a boolean or an option, so
      // those are refused below. To leave an optional attribute unset, leave its key out.
    }
    const problem = valueProblem(definition, value);
    if (problem !== null) return { param: `attributes.${definition.key}`, message: `Attribute '${definition.key}': ${problem}.` };
  }
  return null;
}

/**
 * -1, 0 or 1 as decimal text (NUMBER_TEXT) compares with an integer bound, exactly: as floating
 * point, '5.0000000000000001' would read as 5 and pass a maximum of 5.
 */
function compareDecimal(text: string, bound: number): number {
  const [whole = '', fraction = ''] = text.split('.');
  const scaled = BigInt(whole + fraction);
  const limit = BigInt(bound) * 10n ** BigInt(fraction.length);
  if (scaled === limit) return 0;
  return scaled < limit ? -1 : 1;
}

function valueProblem(definition: StoredAttributeDefinition, value: string): string | null {
  switch (definition.type) {
    case 'string': {
      const length = [...value].length;
      if (definition.max_length !== null && length > definition.max_length) {
        return `must be at most ${definition.max_length} characters (it has ${length})`;
      }
      return null;
    }
    case 'number':
    case 'integer': {
      const pattern = definition.type === 'number' ? NUMBER_TEXT : INTEGER_TEXT;
      if (!pattern.test(value)) {
        return definition.type === 'number' ? `'${value}' is not a decimal number` : `'${value}' is not an integer`;
      }
      if (definition.min !== null && compareDecimal(value, definition.min) < 0) return `${value} is below the minimum ${definition.min}`;
      if (definition.max !== null && compareDecimal(value, definition.max) > 0) return `${value} is above the maximum ${definition.max}`;
      return null;
    }
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `'${value}' is not true or false`;
    case 'enum':
      return definition.options?.includes(value) ? null : `'${value}' is not one of ${(definition.options ?? []).join(', ')}`;
  }
}

/** Refuses attributes that do not fit: 400 naming `attributes.<key>`. */
export function assertAttributesFit(schema: AttributeSchemaValue, values: Record<string, string>): void {
  const problem = findAttributeProblem(schema, values);
  if (problem !== null) throw errors.invalidRequest(problem.message, problem.param);
}
