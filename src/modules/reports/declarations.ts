// What the reports module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Report } from './schemas.js';

export const REPORT_ID_PREFIXES = {
  report: 'rpt',
} as const;

export const REPORT_EVENT_TYPES = [
  eventGroup({ objectName: 'Report', object: Report, rank: 170 }, {
    'report.succeeded': ['A report was built: its CSV file can be downloaded through `file.url`.'],
    'report.failed': ['A report could not be built; `failure` says why. Ask for it again.'],
  }),
] as const;

type ReportIdPrefixes = typeof REPORT_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends ReportIdPrefixes {}
}

type ReportEventTypes = EventTypesOf<typeof REPORT_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends ReportEventTypes {}
}
