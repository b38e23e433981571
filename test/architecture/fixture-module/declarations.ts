// What the widgets module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses, made checked ErrorCodes by the `declare module`.
import type { CodesOf } from '../../../src/contracts/wiring.js';

export const WIDGET_ERROR_CODES = {
  widget_jammed: 423,
} as const;

type WidgetErrorCodes = CodesOf<typeof WIDGET_ERROR_CODES>;
declare module '../../../src/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends WidgetErrorCodes {}
}
