// The reports module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules).
export { Report } from './schemas.js';
