// The emails module's manifest (src/contracts/wiring.ts): the outbox of emails and its sender job.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { listEmailsRoute } from './routes/list-emails.js';
import { emailSendJob } from './sender.js';

export const emailsModule: ModuleManifest = {
  name: 'emails',
  routes: { manageSignedIn: [listEmailsRoute] },
  jobKinds: [emailSendJob],
};
