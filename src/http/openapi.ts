// Finishing touches of the OpenAPI document that @fastify/swagger generates from the route
// schemas: what no single route schema can say (operation ids unique across the document, the
// Idempotency-Key header of every /v1 POST, bodies that are optional or absent, the error codes
// each operation can answer, the response headers every answer carries), and the `webhooks`: the
// event envelopes the service POSTs, which no route answers.
import type { ErrorStatuses } from '../contracts/wiring.js';
import type { ErrorCode } from '../errors.js';

/** The parts of the document this module reads or writes. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, unknown>;
  webhooks?: Record<string, { post: OpenApiOperation & { tags?: string[] } }>;
}

/** One webhook of the document: an event type and its envelope schema (a JSON Schema with its component name as $id). */
export interface OpenApiWebhook {
  name: string;
  description: string;
  schema: { $id?: string };
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
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
    'Makes the POST safe to retry: the same key with the same request replays the first answer (headers Idempotent-Replayed: true ' +
    'and Original-Request naming the request that ran); ' +
    'with another request it answers 409 idempotency_key_reused, while the first still runs 409 idempotency_key_in_use. ' +
    'A request that died with its server process (crash, kill) holds its key no longer than that process: a retry runs ' +
    'as soon as another process serves it or the process is back (a host that vanished without closing its database ' +
    'connection: about 11 s). Kept 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** Runs once per document (@fastify/swagger caches the result). */
/** `statuses`: every error code with its status, in the order the enums list them (the wiring's). */
export function finishDocument(document: OpenApiDocument, statuses: ErrorStatuses, webhooks: readonly OpenApiWebhook[] = []): OpenApiDocument {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const post = operations.post;
    if (post && path.startsWith('/v1/') && !post.parameters?.includes(IDEMPOTENCY_KEY_PARAMETER)) {
      post.parameters = [...(post.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    }
    for (const [method, operation] of Object.entries(operations)) {
      documentBody(operation);
      documentResponses(path, method, operation, statuses);
    }
  }
  assignOperationIds(document);
  document.components = { ...document.components, headers: RESPONSE_HEADERS };
  addWebhooks(document, webhooks);
  return document;
}

const WEBHOOK_RESPONSES = {
  '2XX': {
    description:
      'Any 2xx answer within the timeout acknowledges the delivery; anything else (or none) is retried with backoff. ' +
      'Verify the Service-Signature header before trusting the body (docs/webhooks.md).',
  },
};

/**
 * One `webhooks` entry per event type, a POST whose body is the type's envelope, kept in
 * components.schemas under its name (OrderCreatedEvent), and `WebhookEvent`: the union of them all,
 * discriminated by `type`, for a client's typed constructEvent.
 */
function addWebhooks(document: OpenApiDocument, webhooks: readonly OpenApiWebhook[]): void {
  if (webhooks.length === 0) return;
  const schemas = { ...(document.components?.schemas as Record<string, unknown> | undefined) };
  const mapping: Record<string, string> = {};
  document.webhooks = {};
  for (const webhook of webhooks) {
    const ref = asComponents(JSON.parse(JSON.stringify(webhook.schema)) as unknown, schemas) as { $ref: string };
    mapping[webhook.name] = ref.$ref;
    document.webhooks[webhook.name] = {
      post: {
        operationId: `${operationIdOf(webhook.name.replace(/[._]/g, ' '))}Webhook`,
        summary: webhook.name,
        description: webhook.description,
        tags: ['Webhooks'],
        requestBody: { required: true, content: { 'application/json': { schema: ref } } },
        responses: WEBHOOK_RESPONSES,
      },
    };
  }
  schemas.WebhookEvent = {
    description: 'Any event the service delivers to a webhook endpoint: one of the envelopes of `webhooks`, told apart by `type`.',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping },
  };
  document.components = { ...document.components, schemas };
}

/**
 * The JSON schema with every subschema that has an $id replaced by a $ref to
 * components.schemas[$id], put there when absent (the routes' own components, such as Order, stay).
 */
function asComponents(node: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => asComponents(item, schemas));
  if (node === null || typeof node !== 'object') return node;
  const { $id, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, asComponents(value, schemas)]));
  if (typeof $id !== 'string') return copy;
  if (!(($id) in schemas)) schemas[$id] = copy;
  return { $ref: `#/components/schemas/${$id}` };
}

const RESPONSE_HEADERS = {
  'Request-Id': {
    description: 'The id of this request (req_…), also the `request_id` of an error body; quote it when asking for help.',
    schema: { type: 'string' },
    example: 'req_01jd0000000000000000000000',
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key ' +
      '(successes and 403, 404 and 409 answers are stored); absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Original-Request': {
    description:
      'Sent with `Idempotent-Replayed: true`: the id of the request that ran and whose answer this is. The replay has its own ' +
      '`Request-Id`, and a replayed error body names that one in `request_id`, so header and body agree.',
    schema: { type: 'string' },
    example: 'req_01jd0000000000000000000001',
  },
  'Retry-After': {
    description: 'Sent with 429 `rate_limited`: whole seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
};

const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Every answer carries Request-Id; a /v1 POST's answers may be replays (Idempotent-Replayed,
 * Original-Request); a 4XX may be a 429 with Retry-After. The 4XX and 5XX descriptions name the
 * codes of the operation.
 */
function documentResponses(path: string, method: string, operation: OpenApiOperation, statuses: ErrorStatuses): void {
  const v1 = path.startsWith('/v1/');
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const headers: Record<string, unknown> = { 'Request-Id': headerRef('Request-Id') };
    if (v1 && method === 'post' && (/^2/.test(status) || status === '4XX')) {
      headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      headers['Original-Request'] = headerRef('Original-Request');
    }
    if (status === '4XX') headers['Retry-After'] = headerRef('Retry-After');
    const codes = status === '4XX' ? clientErrorCodes(path, method, operation, statuses) : status === '5XX' ? serverErrorCodes(operation, statuses) : null;
    const content = codes === null ? response.content : errorContent(codes);
    const description =
      status === '4XX'
        ? clientErrorDescription(path, method, operation, statuses)
        : status === '5XX'
          ? 'Server error, in the error envelope: 500 `internal_error`' +
            (codes?.includes('processor_error') ? '; 502 `processor_error` (the payment processor refused or could not be reached: its message)' : '') +
            '. Retry the request' +
            (v1 && method === 'post' ? ', with the same Idempotency-Key.' : '.')
          : response.description;
    operation.responses![status] = { ...response, description, headers: { ...response.headers, ...headers }, ...(content ? { content } : {}) };
  }
}

/** The 4xx codes an operation can answer: those every operation of its kind can, and those its description names. */
export function clientErrorCodes(path: string, method: string, operation: OpenApiOperation, statuses: ErrorStatuses): ErrorCode[] {
  const codes = new Set<ErrorCode>(['invalid_request']);
  const description = operation.description ?? '';
  if (path.startsWith('/v1/')) {
    codes.add('api_key_missing').add('api_key_invalid').add('rate_limited');
    if (!(operation.security ?? []).some((scheme) => 'publishableKey' in scheme)) codes.add('secret_key_required');
    if (method !== 'get') codes.add('marketplace_read_only');
    if (method === 'post') codes.add('idempotency_key_reused').add('idempotency_key_in_use');
  } else if ((operation.security ?? []).length > 0) {
    codes.add('authentication_required');
  }
  const security = operation.security ?? [];
  // The dashboard's session cookie: it may have ended; a change needs its CSRF token; on /v1 the member's role bounds writes.
  if (security.some((scheme) => 'dashboardSession' in scheme)) {
    codes.add('authentication_required');
    if (security.some((scheme) => 'csrfToken' in scheme)) codes.add('csrf_token_invalid');
    if (path.startsWith('/v1/') && method !== 'get') codes.add('permission_denied');
  }
  const names = (operation.parameters ?? []) as Array<{ in?: string; name?: string }>;
  if (names.some((p) => p.in === 'path' || p.name === 'workspace') || /\b404\b/.test(description)) codes.add('resource_missing');
  if (BODY_METHODS.has(method)) codes.add('request_too_large').add('unsupported_media_type');
  const all = Object.keys(statuses) as ErrorCode[];
  for (const code of all) if (new RegExp(`\\b${code}\\b`).test(description)) codes.add(code);
  return all.filter((code) => codes.has(code) && statuses[code] < 500);
}

/**
 * The codes no operation of the document answers, and where they come from: refusals made before
 * any route (the document's description names them) and the media upload address (PUT
 * /uploads/{token}, outside the API: docs/media.md).
 */
export const CODES_OUTSIDE_OPERATIONS: Partial<Record<ErrorCode, string>> = {
  request_timeout: 'before routing: headers too slow',
  request_header_too_large: 'before routing: request line and headers over 16 KiB',
  upload_already_received: 'the upload address, a second PUT of one file',
};

/** The 5xx codes an operation can answer: internal_error, and processor_error where it calls the payment processor (its description names it). */
export function serverErrorCodes(operation: OpenApiOperation, statuses: ErrorStatuses): ErrorCode[] {
  const description = operation.description ?? '';
  return (Object.keys(statuses) as ErrorCode[]).filter((code) => statuses[code] >= 500 && (code === 'internal_error' || new RegExp(`\\b${code}\\b`).test(description)));
}

/**
 * The error answer of one status class of one operation: the shared Error envelope with `code`
 * narrowed to the codes that operation can answer (an enum a typed client can switch on), and an
 * example with the first of them. An allOf over the shared component keeps the document small.
 */
function errorContent(codes: readonly ErrorCode[]) {
  const first = codes[0] ?? 'invalid_request';
  return {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Error' },
          { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: [...codes] } } } } },
        ],
      },
      example: {
        error: {
          code: first,
          message: ERROR_EXAMPLE_MESSAGES[first] ?? 'See the code.',
          ...(first === 'invalid_request' ? { param: 'email' } : {}),
          request_id: 'req_01jd0000000000000000000000',
        },
      },
    },
  };
}

const ERROR_EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'Invalid email: must match format "email".',
  internal_error: 'An internal error occurred. Quote the request id when reporting it.',
};

const CODE_NOTES: Partial<Record<ErrorCode, string>> = {
  invalid_request: ' (`param` names the field)',
  rate_limited: ' (wait `Retry-After` seconds)',
};

function clientErrorDescription(path: string, method: string, operation: OpenApiOperation, statuses: ErrorStatuses): string {
  const byStatus = new Map<number, string[]>();
  for (const code of clientErrorCodes(path, method, operation, statuses)) {
    const status = statuses[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`${CODE_NOTES[code] ?? ''}`]);
  }
  const list = [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, codes]) => `${status} ${codes.join(', ')}`)
    .join('; ');
  return `Client error, in the error envelope. Codes: ${list}. Treat any other 4xx code by its status.`;
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
