// The marketplaces module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { lockModeForBound } from './mode-lock.js';
export { loadSettings, loadSettingsAndNow, settingsAndNowOf } from './mode-settings.js';
export { advanceModeClock, findMarketplaceMode, workspaceOfMode } from './modes.js';
export type { MarketplaceModeRow } from './modes.js';
export { createMarketplace } from './operations.js';
export type { KeyPair } from './operations.js';
export { connectedProvider, loadProcessorCredentials, processorFor } from './processor-connection.js';
export type { ConnectedProcessor } from './processor-connection.js';
