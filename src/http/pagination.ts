// Paging moved to src/db/paging.ts. This re-export is kept only for src/modules/emails/outbox.ts,
// which another change is editing at the same time; delete it once that file imports
// src/db/paging.ts.
export { pageRequest, toList, type ListEnvelope, type PageRequest } from '../db/paging.js';
