// GET /v1/test_helpers/clock.
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveTestClock } from '../test-clock.js';
import { TestClock } from '../schemas.js';
import { requireTestMode } from '../test-mode.js';

export const retrieveTestClockRoute: RouteModule = (app) => {
  app.get(
    '/test_helpers/clock',
    {
      preValidation: requireTestMode,
      schema: {
        tags: ['Test helpers'],
        summary: 'Retrieve the test clock',
        description: 'The current time of this test mode. Test-mode keys only (403 test_mode_only otherwise).',
        response: { 200: TestClock },
      },
    },
    async (request) => retrieveTestClock(request.ctx),
  );
};
