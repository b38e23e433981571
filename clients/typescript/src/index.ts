// The public surface of @marketplace-backend/client.
export { createClient } from './client.js';
export type { CallInit, ClientOptions, ExpandPath, ListItem, ListOptions, ListPath, MarketplaceClient, PathsWith, PostOptions, ResponseOf } from './client.js';
export { createManagementClient } from './manage.js';
export type { ManageCallInit, ManagementClient, ManagementClientOptions, ManagePathsWith, ManageResponseOf } from './manage.js';
export type { ExpandObject, Expanded } from './expand.js';
export { MarketplaceError, WebhookSignatureError } from './errors.js';
export type { ErrorEnvelope, MarketplaceErrorType, WebhookSignatureFailure } from './errors.js';
export { DEFAULT_RETRY_POLICY } from './retry.js';
export type { Fetch, RetryPolicy } from './retry.js';
export { constructEvent, DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signatureHeader, webhooks } from './webhooks.js';
export type { ConstructEventOptions, EventOf, EventType, WebhookEvent, Webhooks } from './webhooks.js';
export type { components, operations } from './schema.js';
export type { managePaths, paths } from './paths.js';
