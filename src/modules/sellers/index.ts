// The sellers module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { findSellerForShare, findSellerIdByProcessorAccount, findSellerPayouts, payoutsEnabledBy, requireLiveSeller, requireSeller, setSellerPayouts, setSellerVerification } from './operations.js';
export type { SellerRow } from './operations.js';
export { Reason, Seller } from './schemas.js';
export { selectSellerNames as findSellerNames } from './queries.js';
export { findSellerName } from './operations.js';
export { SELLER_VERIFICATION_MACHINE } from './verification-state.js';
