// The dashboard module's public surface: what other modules and the composition root may use.
export { dashboardApiAccess } from './api-access.js';
