// The reputation module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { computeReputation, recordReputationEvent, voidReviewReputation } from './operations.js';
