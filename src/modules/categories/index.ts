// The categories module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { assertAttributesFit } from './attributes.js';
export { findCategorySubtreeIds, requireCategory, requireCategoryForShare } from './operations.js';
export type { CategoryRow } from './operations.js';
