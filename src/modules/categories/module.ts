// The categories module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { CATEGORY_ERROR_CODES } from './declarations.js';
import { expandableCategory } from './expandable.js';
import { categoryRoutes } from './routes/index.js';

export const categoriesModule: ModuleManifest = {
  name: 'categories',
  tables: ['categories'],
  routes: { secret: categoryRoutes },
  expandable: [expandableCategory],
  errorCodes: CATEGORY_ERROR_CODES,
  tags: [{ name: 'Categories', description: 'The catalog tree, with per-category attribute schemas, fees and prohibitions.', rank: 20 }],
};
