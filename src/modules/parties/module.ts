// The parties module's manifest (src/contracts/wiring.ts). It holds what sellers and buyers share
// (their fields, moderation action records) and declares nothing else of its own to wire.
import type { ModuleManifest } from '../../contracts/wiring.js';

export const partiesModule: ModuleManifest = {
  name: 'parties',
  tables: ['moderation_actions'],
};
