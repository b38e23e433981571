// The reviews module's public surface: the schema of the object its events carry (the event catalog,
// src/modules/events/catalog.ts). Other modules reach it otherwise only through the hooks its
// manifest (module.ts) declares and the composition root wires (docs/architecture.md, Import rules).
export { Review } from './schemas.js';
