// The emails module's manifest (src/contracts/wiring.ts): the outbox of emails and its sender job
// (members list a workspace's emails through the accounts module: GET /manage/v1/emails).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { EMAIL_ID_PREFIXES } from './declarations.js';
import { emailSendJob } from './sender.js';

export const emailsModule: ModuleManifest = {
  name: 'emails',
  tables: ['emails'],
  idPrefixes: EMAIL_ID_PREFIXES,
  jobKinds: [emailSendJob],
};
