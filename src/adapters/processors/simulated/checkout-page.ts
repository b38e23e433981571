// The simulated processor's hosted checkout page (test mode): GET shows the amount with Pay and
// Decline buttons; their POST reports the payment's success or failure (the payments module's
// side, handed in by the root), then sends the buyer to the success or cancel URL (or shows the
// outcome when there is none). The payment id and the random token beside it in the path are the
// credential (driver.ts): without the token, or with another one, the page answers 404 as for an
// unknown payment. Never cached, never a referrer.
import type { FastifyReply } from 'fastify';
import type { App, RouteModule } from '../../../contracts/wiring.js';
import type { CheckoutPage, CheckoutPageSide, PageItem } from '../../../contracts/simulated-pages.js';
import { simulatedCheckoutPath, simulatedPageTokenMatches } from './driver.js';
import { escapeHtml, IdParams, PageParams, simulatedPage, simulatedPageHeaders } from './pages.js';

/** What the payment pays for, as a buyer reads it: each listing's title and seller, then the amount (ids in small print). */
function itemsTable(items: readonly PageItem[], currency: string): string {
  if (items.length === 0) return '';
  const rows = items.map((item) => {
    const what = item.title === null ? `<code>${escapeHtml(item.listing ?? item.order ?? '')}</code>` : `${escapeHtml(item.title)}<br><small><code>${escapeHtml(item.listing ?? '')}</code></small>`;
    return `<tr><td>${what}</td><td>${escapeHtml(item.seller ?? '')}</td><td>${escapeHtml((item.amount / 100).toFixed(2))} ${escapeHtml(currency)}</td></tr>`;
  });
  return `<table><thead><tr><th>Listing</th><th>Seller</th><th>Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function send(reply: FastifyReply, id: string, token: string, result: CheckoutPage, redirectStatus: 302 | 303) {
  simulatedPageHeaders(reply);
  const html = (status: number, title: string, body: string) => reply.code(status).type('text/html; charset=utf-8').send(simulatedPage(title, body));
  switch (result.kind) {
    case 'missing':
      return html(404, 'Checkout not found', '<h1>This checkout does not exist</h1>');
    case 'redirect':
      return reply.redirect(result.url, redirectStatus);
    case 'closed':
      return html(200, 'Checkout closed', `<h1>Payment ${escapeHtml(result.payment.status)}</h1><p>${escapeHtml(result.payment.last_failure ?? 'Nothing is due on this checkout.')}</p>`);
    case 'open': {
      const { payment } = result;
      const action = escapeHtml(simulatedCheckoutPath(id, token));
      return html(
        200,
        'Checkout',
        `<h1>Pay ${escapeHtml((payment.amount / 100).toFixed(2))} ${escapeHtml(payment.currency)}</h1>` +
          `<p>${payment.order === null ? `Checkout <code>${escapeHtml(payment.checkout ?? '')}</code>` : `Order <code>${escapeHtml(payment.order)}</code>`}.${payment.last_failure ? ` Last attempt: ${escapeHtml(payment.last_failure)}` : ''}</p>` +
          itemsTable(result.items, payment.currency) +
          `<form method="post" action="${action}/pay"><button type="submit">Pay</button></form>` +
          `<form method="post" action="${action}/decline"><button type="submit" class="secondary">Decline</button></form>`,
      );
    }
  }
}

export const simulatedCheckoutPages = (side: CheckoutPageSide): RouteModule => async (app) => {
  const check = (id: string, token: string) => (stored: string | null) => simulatedPageTokenMatches('checkout', id, stored, token);
  // Encapsulated, so the form parser exists for these routes only: /v1 stays JSON-only.
  await app.register(async (scope: App) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    scope.get('/simulated/checkout/:id/:token', { schema: { hide: true, params: PageParams } }, async (request, reply) =>
      send(reply, request.params.id, request.params.token, await side.view(request.service, request.params.id, check(request.params.id, request.params.token)), 302),
    );
    scope.post('/simulated/checkout/:id/:token/pay', { schema: { hide: true, params: PageParams } }, async (request, reply) =>
      send(reply, request.params.id, request.params.token, await side.submit(request.service, request.params.id, check(request.params.id, request.params.token), true), 303),
    );
    scope.post('/simulated/checkout/:id/:token/decline', { schema: { hide: true, params: PageParams } }, async (request, reply) =>
      send(reply, request.params.id, request.params.token, await side.submit(request.service, request.params.id, check(request.params.id, request.params.token), false), 303),
    );
    // The id alone (a page of an earlier version, or a guess) is no credential: the same 404 page.
    const bare = async (_request: unknown, reply: FastifyReply) => send(reply, '', '', { kind: 'missing' }, 302);
    scope.get('/simulated/checkout/:id', { schema: { hide: true, params: IdParams } }, bare);
  });
};
