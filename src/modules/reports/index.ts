// The reports module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). The payments module keeps the simulated processor's books
// through it.
export { recordSimulatedMovement, simulatedRecords } from './simulated-records.js';
export { Report } from './schemas.js';
