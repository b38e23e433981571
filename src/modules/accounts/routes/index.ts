// The account routes of the management API, by the scope they live in (src/app/routes.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { acceptInvitationRoute } from './accept-invitation.js';
import { addMemberRoute } from './add-member.js';
import { confirmEmailRoute } from './confirm-email.js';
import { createWorkspaceRoute } from './create-workspace.js';
import { joinWorkspaceRoute } from './join-workspace.js';
import { listMembersRoute } from './list-members.js';
import { listWorkspacesRoute } from './list-workspaces.js';
import { loginRoute } from './login.js';
import { logoutRoute } from './logout.js';
import { removeMemberByEmailRoute } from './remove-member-by-email.js';
import { removeMemberRoute } from './remove-member.js';
import { resendVerificationRoute } from './resend-verification.js';
import { setBillingStateRoute } from './set-billing-state.js';
import { signupRoute } from './signup.js';
import { updateMemberRoute } from './update-member.js';

/** Without credentials. */
export const accountPublicRoutes: RouteModule[] = [signupRoute, loginRoute, acceptInvitationRoute, confirmEmailRoute];

/** With OPERATOR_TOKEN. */
export const accountOperatorRoutes: RouteModule[] = [setBillingStateRoute];

/** For a signed-in user: their session and workspaces. */
export const sessionRoutes: RouteModule[] = [logoutRoute, listWorkspacesRoute, createWorkspaceRoute, joinWorkspaceRoute, resendVerificationRoute];

/** For a signed-in user: the members of a workspace. */
export const memberRoutes: RouteModule[] = [listMembersRoute, addMemberRoute, updateMemberRoute, removeMemberRoute, removeMemberByEmailRoute];
