// The categories module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { CATEGORY_ERROR_CODES, CATEGORY_ID_PREFIXES, CATEGORY_EVENT_TYPES } from './declarations.js';
import { expandableCategory } from './expandable.js';
import { categoryRoutes } from './routes/index.js';

export const categoriesModule: ModuleManifest = {
  name: 'categories',
  tables: ['categories'],
  idPrefixes: CATEGORY_ID_PREFIXES,
  eventTypes: CATEGORY_EVENT_TYPES,
  routes: { secret: categoryRoutes },
  expandable: [expandableCategory],
  errorCodes: CATEGORY_ERROR_CODES,
  tags: [{ name: 'Categories', description: 'The catalog tree, with per-category attribute schemas, fees and prohibitions.', rank: 20 }],
};
