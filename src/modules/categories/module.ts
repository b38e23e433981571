// The categories module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { expandableCategory } from './expandable.js';
import { categoryRoutes } from './routes/index.js';

export const categoriesModule: ModuleManifest = {
  name: 'categories',
  tables: ['categories'],
  routes: { secret: categoryRoutes },
  expandable: [expandableCategory],
};
