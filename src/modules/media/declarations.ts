// What the media module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const MEDIA_ERROR_CODES = {
  upload_missing: 409,
  upload_mismatch: 409,
  upload_already_received: 409,
} as const;

type MediaErrorCodes = CodesOf<typeof MEDIA_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends MediaErrorCodes {}
}
