// Finishing touches of the OpenAPI document that @fastify/swagger generates from the route
// schemas: what no single route schema can say (operation ids unique across the document, the
// Idempotency-Key header of every /v1 POST, bodies that are optional or absent).

/** The parts of the document this module reads or writes. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

interface JsonSchema {
  required?: string[];
  properties?: Record<string, unknown>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the POST safe to retry: the same key with the same request replays the first answer (header Idempotent-Replayed: true); ' +
    'with another request it answers 409 idempotency_key_reused, while the first still runs 409 idempotency_key_in_use. Kept 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** Runs once per document (@fastify/swagger caches the result). */
export function finishDocument(document: OpenApiDocument): OpenApiDocument {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const post = operations.post;
    if (post && path.startsWith('/v1/') && !post.parameters?.includes(IDEMPOTENCY_KEY_PARAMETER)) {
      post.parameters = [...(post.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    }
    for (const operation of Object.values(operations)) documentBody(operation);
  }
  assignOperationIds(document);
  return document;
}

/**
 * An operation without body fields (EmptyBody: publish, approve, logout, the DELETEs) documents no
 * request body, though it still accepts none, {} or null. Otherwise the body is optional exactly
 * when its schema requires no field (the app reads a missing body as {}).
 */
function documentBody(operation: OpenApiOperation): void {
  const body = operation.requestBody;
  if (!body) return;
  const schema = body.content?.['application/json']?.schema;
  if (schema && !hasFields(schema)) {
    delete operation.requestBody;
    return;
  }
  body.required = (schema?.required?.length ?? 0) > 0;
}

function hasFields(schema: JsonSchema): boolean {
  if (schema.$ref !== undefined) return true;
  if (Object.keys(schema.properties ?? {}).length > 0) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].some(hasFields);
}

const ARTICLES = new Set(['a', 'an', 'the']);

/**
 * camelCase of the summary without articles, possessives, a parenthesis or what follows a colon:
 * "Retrieve a category's attribute schema" → retrieveCategoryAttributeSchema, "Sign up: create a
 * user and their workspace" → signUp, "List API keys" → listApiKeys.
 */
export function operationIdOf(summary: string): string {
  const words = summary
    .split(':')[0]!
    .replace(/\([^)]*\)/g, ' ')
    .replace(/['’]s\b/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '' && !ARTICLES.has(word.toLowerCase()));
  return words.map((word, i) => (i === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/**
 * Every operation gets an operationId: the one its route schema gives, else one derived from its
 * summary. A management operation whose derived id a /v1 operation already has is prefixed with
 * manage (GET /manage/v1/marketplaces/{id}: manageRetrieveMarketplace).
 */
function assignOperationIds(document: OpenApiDocument): void {
  const all = Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
    Object.values(operations).map((operation) => ({ path, operation })),
  );
  const taken = new Set(all.flatMap(({ operation }) => (operation.operationId ? [operation.operationId] : [])));
  for (const { path, operation } of all) {
    if (operation.operationId || !operation.summary) continue;
    let id = operationIdOf(operation.summary);
    if (taken.has(id) && path.startsWith('/manage/')) id = `manage${id[0]!.toUpperCase()}${id.slice(1)}`;
    operation.operationId = id;
    taken.add(id);
  }
}
