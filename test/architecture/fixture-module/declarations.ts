// What the widgets module declares for the composition root to assemble (its manifest lists it):
// the prefix of its ids, its error codes with their HTTP statuses, and its event type with the
// object it carries. The `declare module`s make each kind a checked IdKind, each code a checked
// ErrorCode and each type a checked EventType.
import { eventGroup, type EventTypesOf } from '../../../src/contracts/events.js';
import type { CodesOf } from '../../../src/contracts/wiring.js';
import { Widget } from './schemas.js';

export const WIDGET_ID_PREFIXES = {
  widget: 'wgt',
} as const;

export const WIDGET_ERROR_CODES = {
  widget_jammed: 423,
} as const;

// Rank 65: between the orders' types (60) and the checkouts' (70).
export const WIDGET_EVENT_TYPES = [
  eventGroup({ objectName: 'Widget', object: Widget, rank: 65 }, {
    'widget.jammed': ['A widget jammed: it answers 423 widget_jammed.'],
  }),
] as const;

type WidgetIdPrefixes = typeof WIDGET_ID_PREFIXES;
declare module '../../../src/ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends WidgetIdPrefixes {}
}

type WidgetErrorCodes = CodesOf<typeof WIDGET_ERROR_CODES>;
declare module '../../../src/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends WidgetErrorCodes {}
}

type WidgetEventTypes = EventTypesOf<typeof WIDGET_EVENT_TYPES>;
declare module '../../../src/contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends WidgetEventTypes {}
}
