// The simulated processor's hosted checkout page (test mode): GET shows the amount with Pay and
// Decline buttons; their POST reports the payment's success or failure, then sends the buyer to
// the success or cancel URL (or shows the outcome when there is none). The payment id in the path
// is the only credential, as with a processor's hosted page: never cached, never a referrer.
import type { FastifyReply } from 'fastify';
import { IdParams } from '../../../http/schemas.js';
import type { App, RouteModule } from '../../../contracts/wiring.js';
import { simulatedCheckoutPath } from '../../../adapters/processors/simulated.js';
import { escapeHtml, simulatedPage, simulatedPageHeaders } from '../../../adapters/processors/simulated-pages.js';
import { submitCheckout, viewCheckout, type CheckoutPage } from '../simulated-payments.js';
import type { LineItem } from '../queries.js';

/** A checkout's charge lists what it pays for: each order, its listing and amount. */
function itemsTable(items: readonly LineItem[] | null, currency: string): string {
  if (items === null) return '';
  const rows = items.map((item) => `<tr><td><code>${escapeHtml(item.order)}</code></td><td><code>${escapeHtml(item.listing ?? '')}</code></td><td>${escapeHtml((item.amount / 100).toFixed(2))} ${escapeHtml(currency)}</td></tr>`);
  return `<table><thead><tr><th>Order</th><th>Listing</th><th>Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function send(reply: FastifyReply, id: string, result: CheckoutPage, redirectStatus: 302 | 303) {
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
      const action = escapeHtml(simulatedCheckoutPath(id));
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

export const simulatedCheckoutPages: RouteModule = async (app) => {
  // Encapsulated, so the form parser exists for these routes only: /v1 stays JSON-only.
  await app.register(async (scope: App) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    scope.get('/simulated/checkout/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
      send(reply, request.params.id, await viewCheckout(request.service, request.params.id), 302),
    );
    scope.post('/simulated/checkout/:id/pay', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
      send(reply, request.params.id, await submitCheckout(request.service, request.params.id, true), 303),
    );
    scope.post('/simulated/checkout/:id/decline', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
      send(reply, request.params.id, await submitCheckout(request.service, request.params.id, false), 303),
    );
  });
};
