// The test-helpers module's manifest (src/contracts/wiring.ts): the test clock of a test mode
// (/v1/test_helpers), which runs the wiring's timers and clock hooks when advanced.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { testHelperRoutes } from './routes/index.js';

export const testHelpersModule: ModuleManifest = {
  name: 'test-helpers',
  tables: [],
  routes: { secret: testHelperRoutes },
  tags: [{ name: 'Test helpers', description: "The test clock of a test mode, and the simulated processor's reports (test keys only).", rank: 200 }],
};
