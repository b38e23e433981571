// The test clock record and the advance body. Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, Timestamp } from '../../http/schemas.js';

export const MAX_ADVANCE_SECONDS = 31_536_000;

export const TestClock = Type.Object(
  {
    object: Type.Literal('test_clock'),
    now: Timestamp,
    offset_seconds: Type.Integer({ minimum: 0, description: 'How far this mode runs ahead of real time.' }),
  },
  { examples: [{ object: 'test_clock', now: '2026-11-22T09:30:00.000Z', offset_seconds: 86400 }] },
);
export type TestClock = Static<typeof TestClock>;

export const AdvanceTestClockBody = Body(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: MAX_ADVANCE_SECONDS,
      description: 'How far to move the test clock forward: 1 second to 365 days.',
      examples: [3600],
    }),
  },
  'Moves this mode\'s clock forward; timers that became due have run when the answer returns.',
);
Object.assign(AdvanceTestClockBody, { examples: [{ seconds: 3600 }] });
export type AdvanceTestClockBody = Static<typeof AdvanceTestClockBody>;
