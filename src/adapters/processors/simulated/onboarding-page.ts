// The simulated processor's onboarding page: GET shows a "Complete onboarding" button, its POST
// enables the seller's payouts (the onboarding module's side, handed in by the root) and sends the
// seller to return_url. A used or expired link sends the seller to refresh_url. The link id and
// the random token beside it in the path are the credential (driver.ts): without the token, or
// with another one, the page answers 404 as for an unknown link. Never cached or sent as a referrer.
import type { FastifyReply } from 'fastify';
import type { App, RouteModule } from '../../../contracts/wiring.js';
import type { OnboardingPage, OnboardingPageSide } from '../../../contracts/simulated-pages.js';
import { simulatedOnboardingPath, simulatedPageTokenMatches } from './driver.js';
import { escapeHtml, IdParams, PageParams, simulatedPage, simulatedPageHeaders } from './pages.js';

function send(reply: FastifyReply, linkId: string, token: string, result: OnboardingPage, redirectStatus: 302 | 303) {
  simulatedPageHeaders(reply);
  switch (result.kind) {
    case 'missing':
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(simulatedPage('Link not found', '<h1>This onboarding link does not exist</h1><p>Ask the platform for a new link.</p>'));
    case 'redirect':
      return reply.redirect(result.url, redirectStatus);
    case 'open': {
      const seller = result.sellerName === null ? '' : `<strong>${escapeHtml(result.sellerName)}</strong> `;
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .send(
          simulatedPage(
            'Complete onboarding',
            `<h1>Set up payouts</h1><p>Seller ${seller}<code>${escapeHtml(result.sellerId)}</code>. A real processor would collect identity ` +
              `and bank details here. This link expires at ${escapeHtml(result.expiresAt.toISOString())}.</p>` +
              `<form method="post" action="${escapeHtml(simulatedOnboardingPath(linkId, token))}"><button type="submit">Complete onboarding</button></form>`,
          ),
        );
    }
  }
}

export const simulatedOnboardingPages = (side: OnboardingPageSide): RouteModule => async (app) => {
  const check = (id: string, token: string) => (stored: string | null) => simulatedPageTokenMatches('onboarding', id, stored, token);
  // Encapsulated, so the form parser below exists for these routes only: /v1 stays JSON-only.
  await app.register(async (scope: App) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    scope.get('/simulated/onboarding/:id/:token', { schema: { hide: true, params: PageParams } }, async (request, reply) =>
      send(reply, request.params.id, request.params.token, await side.view(request.service, request.params.id, check(request.params.id, request.params.token)), 302),
    );
    scope.post('/simulated/onboarding/:id/:token', { schema: { hide: true, params: PageParams } }, async (request, reply) =>
      send(reply, request.params.id, request.params.token, await side.complete(request.service, request.params.id, check(request.params.id, request.params.token)), 303),
    );
    // The id alone (a link of an earlier version, or a guess) is no credential: the same 404 page.
    const bare = async (_request: unknown, reply: FastifyReply) => send(reply, '', '', { kind: 'missing' }, 302);
    scope.get('/simulated/onboarding/:id', { schema: { hide: true, params: IdParams } }, bare);
    scope.post('/simulated/onboarding/:id', { schema: { hide: true, params: IdParams } }, bare);
  });
};
