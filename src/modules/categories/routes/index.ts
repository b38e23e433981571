// The category operations, all secret-key.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createCategoryRoute } from './create.js';
import { listCategoriesRoute } from './list.js';
import { replaceAttributeSchemaRoute } from './replace-attribute-schema.js';
import { retrieveAttributeSchemaRoute } from './retrieve-attribute-schema.js';
import { retrieveCategoryRoute } from './retrieve.js';
import { updateCategoryRoute } from './update.js';

export const categoryRoutes: RouteModule[] = [
  createCategoryRoute,
  listCategoriesRoute,
  retrieveCategoryRoute,
  updateCategoryRoute,
  retrieveAttributeSchemaRoute,
  replaceAttributeSchemaRoute,
];
