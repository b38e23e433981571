// A module added the way every module is: this folder, and its line in src/app/modules.ts (which
// test/app/fixture-module.test.ts stands in for with [...MODULES, widgetsModule]).
import type { ModuleManifest } from '../../../src/contracts/wiring.js';
import { WIDGET_ERROR_CODES, WIDGET_EVENT_TYPES, WIDGET_ID_PREFIXES } from './declarations.js';
import { widgetRoutes } from './routes.js';

export const widgetsModule: ModuleManifest = {
  name: 'widgets',
  idPrefixes: WIDGET_ID_PREFIXES,
  eventTypes: WIDGET_EVENT_TYPES,
  routes: { secret: [widgetRoutes] },
  // Its sellers' widgets would go with them; the listings' locks come first.
  erasure: { participant: { name: 'widgets', eraseSeller: async () => undefined }, after: ['listings'] },
  errorCodes: WIDGET_ERROR_CODES,
  tags: [{ name: 'Widgets', description: 'Widgets: a fixture resource of the architecture tests.', rank: 215 }],
};
