// The accounts module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { lockWorkspaceForBound, memberAddresses, memberOfMarketplace, resolveMarketplace, resolveWorkspace } from './access.js';
export { bearerManagementToken, requireOperator, requireUser } from './manage-auth.js';
export type { CredentialResolver } from './manage-auth.js';
export { createWorkspaceWithOwner, findActiveUser, findUser, logInWith, membershipsOfUser, normalizeEmail, replacePassword, retrieveUser } from './operations.js';
export { hashPassword } from './passwords.js';
export { CREATED_EXAMPLE, EXAMPLE_IDS, EXAMPLE_KEY_TAIL, EmailAddress, LoginBody, MANAGEMENT_TAG, Password, Role, User, WorkspacePageQuery, WorkspaceQuery } from './schemas.js';
export type { BillingState } from './schemas.js';
export { admitSecretAttempt } from './secret-throttle.js';
