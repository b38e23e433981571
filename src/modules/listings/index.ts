// The listings module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { findListing, findListingForOrder, requireListing, reserveUnitsOfListings, returnUnits, unitsReservation, sellUnits, type ShortListing, type Statement, type UnitsWanted } from './operations.js';
export { selectListingCategories as findListingCategories, selectListingTitles as findListingTitles } from './queries.js';
