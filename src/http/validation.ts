// Request validation: bodies are checked without coercion and with unknown fields refused;
// query strings and path parameters are text, so they are coerced from it. The first failure
// becomes a 400 invalid_request whose param is the field's path (price.currency, listings[3].title).
import { Ajv, type ErrorObject } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { DomainError } from '../errors.js';

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    allowUnionTypes: true,
  });
  // ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === 'body' ? bodyAjv.compile(schema as object) : textAjv.compile(schema as object);

/** JSON pointer (/listings/3/price) to the param form of the API (listings[3].price). */
export function pointerToParam(pointer: string): string {
  let param = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    param += /^\d+$/.test(part) ? `[${part}]` : param === '' ? part : `.${part}`;
  }
  return param;
}

function join(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/** Turns the first ajv error into the API's error. */
export function validationError(errors: ErrorObject[], part: string): DomainError {
  // A time (TimeInput) neither form accepts: ajv lists each branch's failure, then the union's;
  // the answer names the two forms rather than the first branch's complaint.
  const union = errors.find((e) => e.keyword === 'anyOf');
  if (union !== undefined) {
    const at = pointerToParam(union.instancePath);
    const isTime = errors.some((e) => e.instancePath === union.instancePath && e.keyword === 'format' && (e.params as { format?: string }).format === 'date-time');
    if (isTime) {
      return new DomainError('invalid_request', `Invalid ${at || 'body'}: expected an ISO 8601 timestamp (2026-11-21T09:30:00.000Z) or unix seconds.`, at || undefined);
    }
  }
  const error = errors[0];
  if (!error) return new DomainError('invalid_request', 'The request is not valid.');
  const at = pointerToParam(error.instancePath);
  const where = part === 'body' ? '' : `${part} `;
  switch (error.keyword) {
    case 'required': {
      const field = join(at, String((error.params as { missingProperty: string }).missingProperty));
      return new DomainError('invalid_request', `Missing required ${where}field: ${field}.`, field);
    }
    case 'additionalProperties': {
      const field = join(at, String((error.params as { additionalProperty: string }).additionalProperty));
      return new DomainError('invalid_request', `Unknown ${where}field: ${field}.`, field);
    }
    case 'type':
      return new DomainError(
        'invalid_request',
        `Invalid ${at || 'body'}: expected ${(error.params as { type: string }).type}.`,
        at || undefined,
      );
    case 'enum':
      return new DomainError(
        'invalid_request',
        `Invalid ${at}: must be one of ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}.`,
        at || undefined,
      );
    case 'anyOf':
    case 'oneOf':
      return new DomainError('invalid_request', `Invalid ${at || 'body'}: it is not of an accepted type.`, at || undefined);
    default: {
      // A key that breaks propertyNames (a metadata key too long) is named in the message.
      const key = error.propertyName === undefined ? '' : ` key '${error.propertyName}'`;
      return new DomainError('invalid_request', `Invalid ${at || 'body'}${key}: ${error.message ?? 'not valid'}.`, at || undefined);
    }
  }
}

/** How deep a body may nest objects and arrays: far beyond any operation's schema. */
export const MAX_NESTING = 64;

/** True when the value nests objects or arrays deeper than `max` levels (checked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const inner of Object.values(current)) stack.push({ value: inner, depth: depth + 1 });
  }
  return false;
}

/**
 * Strings holding NUL or a lone UTF-16 surrogate cannot be stored by PostgreSQL (or are not text
 * at all): refused with the field's path before anything reaches the database.
 */
export function findBadText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasBadText(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      // A bad key is reported as the object holding it: echoing the key itself in `param` would
      // put the very NUL or lone surrogate into the answer.
      if (hasBadText(key)) return path;
      const here = path === '' ? key : `${path}.${key}`;
      const found = findBadText(inner, here);
      if (found !== null) return found;
    }
  }
  return null;
}

function hasBadText(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\u0000/.test(text) || !text.isWellFormed();
}
