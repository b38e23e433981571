// GET /v1/test_helpers/clock and POST /v1/test_helpers/clock/advance (contract 15).
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../http/types.js';
import { Body, Timestamp } from '../../http/schemas.js';
import { advanceTestClock, MAX_ADVANCE_SECONDS, readTestClock } from './clock.js';
import { requireTestMode } from './test-mode.js';

const TestClockRecord = Type.Object(
  {
    object: Type.Literal('test_clock'),
    now: Timestamp,
    offset_seconds: Type.Integer({ minimum: 0, description: 'How far this mode runs ahead of real time.' }),
  },
  { examples: [{ object: 'test_clock', now: '2026-11-22T09:30:00.000Z', offset_seconds: 86400 }] },
);

const AdvanceBody = Body(
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
Object.assign(AdvanceBody, { examples: [{ seconds: 3600 }] });

export const testClockRoutes: RouteModule = (app, services) => {
  app.get(
    '/test_helpers/clock',
    {
      preValidation: requireTestMode,
      schema: {
        tags: ['Test helpers'],
        summary: 'Retrieve the test clock',
        description: 'The current time of this test mode. Test-mode keys only (403 test_mode_only otherwise).',
        response: { 200: TestClockRecord },
      },
    },
    async (request) => readTestClock(services.db, services.clock, request.api.scope),
  );

  app.post(
    '/test_helpers/clock/advance',
    {
      preValidation: requireTestMode,
      schema: {
        tags: ['Test helpers'],
        summary: 'Advance the test clock',
        description:
          'Moves the clock of this test mode forward. Every timer of the mode (expiries, windows, review visibility, ' +
          'release delay, webhook retries) runs on it: those that became due have run before the answer returns, and ' +
          'webhook attempts that became due start at once. Test-mode keys only (403 test_mode_only otherwise).',
        body: AdvanceBody,
        response: { 200: TestClockRecord },
      },
    },
    async (request) =>
      advanceTestClock(services, request.api.scope, request.body.seconds, {
        onHookError: (err, hook) => request.log.error({ err, hook }, 'test clock advance hook failed'),
      }),
  );
};
