// The accounts module's public surface: what other modules and the composition root may use.
export { setPasswordHashCost } from './passwords.js';
