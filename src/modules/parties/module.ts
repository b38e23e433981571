// The parties module's manifest (src/contracts/wiring.ts). It holds what sellers and buyers share
// (their fields, moderation action records) and declares nothing else of its own to wire.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { PARTY_ID_PREFIXES, PARTY_EVENT_TYPES } from './declarations.js';

export const partiesModule: ModuleManifest = {
  name: 'parties',
  tables: ['moderation_actions'],
  idPrefixes: PARTY_ID_PREFIXES,
  eventTypes: PARTY_EVENT_TYPES,
};
