// POST /v1/test_helpers/clock/advance. The one route that hands the operation the
// running service: the advance runs the worker's due work of the mode before it answers.
import type { RouteModule } from '../../../contracts/wiring.js';
import { advanceTestClock } from '../test-clock.js';
import { AdvanceTestClockBody, TestClock } from '../schemas.js';
import { requireTestMode } from '../test-mode.js';

export const advanceTestClockRoute: RouteModule = (app, services) => {
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
        body: AdvanceTestClockBody,
        response: { 200: TestClock },
      },
    },
    async (request) =>
      advanceTestClock(request.ctx, request.body, {
        services,
        onHookError: (err, hook) => request.log.error({ err, hook }, 'test clock advance hook failed'),
      }),
  );
};
