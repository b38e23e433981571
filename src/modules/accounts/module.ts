// The accounts module's manifest (src/contracts/wiring.ts): users, workspaces, members, invitations,
// management tokens and email verification, all under /manage/v1.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { accountOperatorRoutes, accountPublicRoutes, memberRoutes, sessionRoutes } from './routes/index.js';
import { listEmailsRoute } from './routes/list-emails.js';

export const accountsModule: ModuleManifest = {
  name: 'accounts',
  tables: ['users', 'workspaces', 'workspace_members', 'invitations', 'email_verifications', 'management_tokens', 'login_attempts'],
  routes: {
    managePublic: accountPublicRoutes,
    manageOperator: accountOperatorRoutes,
    manageSignedIn: [...sessionRoutes, ...memberRoutes, listEmailsRoute],
  },
};
