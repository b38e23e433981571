// A small Stripe API stand-in on 127.0.0.1 that the REAL SDK talks to (STRIPE_API_URL), for the
// calls the Stripe driver makes. It checks each request as Stripe would (known method and path,
// parameter names the SDK declares for the call, required ones present, our own Idempotency-Key,
// the pinned Stripe-Version) and records what breaks those rules in `violations`, besides answering
// a Stripe-shaped 400. It keeps objects, honours idempotency keys like Stripe (same key and body:
// the first answer again; same key, other body: an idempotency error) and fails on request.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../../src/adapters/processors/stripe-client.js';
import { PARAMS, type FakeKind } from './fake-stripe-params.js';
import { parseForm, type FormValue } from './form.js';

export type { FakeKind };
type Params = Record<string, FormValue>;
type StripeObject = Record<string, unknown> & { id: string };

export interface FakeFailure {
  /** HTTP status of the error answer (default 400); ignored with `drop`. */
  status?: number;
  /** Stripe's error type; by default card_error for 402, api_error for 5xx, else invalid_request_error. */
  type?: string;
  code?: string;
  message?: string;
  /** Close the connection without answering (a network failure). */
  drop?: boolean;
  /** How many requests in a row fail this way (default 1). */
  times?: number;
}

export interface FakeRequest {
  kind: FakeKind;
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  replayed: boolean;
}

interface Endpoint {
  kind: FakeKind;
  path: RegExp;
  /** Answers a checked, new request: the object made or changed, or a Stripe error. */
  handle(fake: FakeStripe, params: Params, pathId: string | undefined): { status: number; body: unknown };
}

const text = (value: FormValue | undefined): string | null => (typeof value === 'string' ? value : null);
const int = (value: FormValue | undefined): number | null => (typeof value === 'string' ? Number(value) : null);
const now = () => Math.floor(Date.now() / 1000);
const stripeError = (status: number, type: string, message: string, code?: string, param?: string) => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } },
});
const ok = (body: unknown) => ({ status: 200, body });
const missing = (what: string, id: string, param?: string) => stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

const ENDPOINTS: Endpoint[] = [
  {
    kind: 'accounts',
    path: /^\/v1\/accounts$/,
    handle: (fake, p) => ok(fake.store('acct_fake', { object: 'account', controller: p.controller, capabilities: { transfers: 'inactive' }, tos_acceptance: p.tos_acceptance, metadata: p.metadata ?? {}, payouts_enabled: false, charges_enabled: false })),
  },
  {
    kind: 'account_links',
    path: /^\/v1\/account_links$/,
    handle: (fake, p) => {
      const account = text(p.account) ?? '';
      if (!fake.objects.has(account)) return missing('account', account, 'account');
      const token = randomBytes(8).toString('hex');
      return ok({ object: 'account_link', url: `${fake.url}/setup/e/${account}/${token}`, created: now(), expires_at: now() + 300 });
    },
  },
  {
    kind: 'checkout_sessions',
    path: /^\/v1\/checkout\/sessions$/,
    handle: (fake, p) => {
      const session = fake.store('cs_test_fake', { object: 'checkout.session', status: 'open', payment_status: 'unpaid', payment_intent: null, mode: p.mode, success_url: p.success_url, cancel_url: p.cancel_url, client_reference_id: p.client_reference_id ?? null, metadata: p.metadata ?? {} });
      session.url = `${fake.url}/c/pay/${session.id}`;
      return ok(session);
    },
  },
  {
    kind: 'checkout_session_expire',
    path: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
    handle: (fake, _p, id = '') => {
      const session = fake.objects.get(id);
      if (!session) return missing('checkout.session', id);
      if (session.status !== 'open') return stripeError(400, 'invalid_request_error', 'Only Checkout Sessions with a status in ["open"] can be expired.');
      session.status = 'expired';
      return ok(session);
    },
  },
  {
    kind: 'payment_intents',
    path: /^\/v1\/payment_intents$/,
    handle: (fake, p) => {
      const intent = fake.store('pi_fake', { object: 'payment_intent', amount: int(p.amount), currency: p.currency, status: 'requires_payment_method', transfer_group: p.transfer_group ?? null, metadata: p.metadata ?? {}, latest_charge: null });
      intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
      return ok(intent);
    },
  },
  {
    kind: 'payment_intent_cancel',
    path: /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
    handle: (fake, _p, id = '') => {
      const intent = fake.objects.get(id);
      if (!intent) return missing('payment_intent', id);
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        return stripeError(400, 'invalid_request_error', `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`, 'payment_intent_unexpected_state');
      }
      intent.status = 'canceled';
      return ok(intent);
    },
  },
  {
    kind: 'refunds',
    path: /^\/v1\/refunds$/,
    handle: (fake, p) => {
      if (p.payment_intent === undefined && p.charge === undefined) return stripeError(400, 'invalid_request_error', 'One of `charge` or `payment_intent` is required.', 'parameter_missing');
      const refund = fake.store('re_fake', { object: 'refund', amount: int(p.amount), currency: 'usd', payment_intent: p.payment_intent ?? null, charge: p.charge ?? null, reason: p.reason ?? null, status: fake.refundStatus, failure_reason: null, metadata: p.metadata ?? {} });
      if (fake.refundStatus === 'succeeded') fake.plantBalanceTransaction({ type: 'refund', source: refund.id, amount: -Number(refund.amount), currency: 'usd' });
      return ok(refund);
    },
  },
  {
    kind: 'transfers',
    path: /^\/v1\/transfers$/,
    handle: (fake, p) => {
      const destination = text(p.destination) ?? '';
      if (!fake.objects.has(destination)) return missing('destination', destination, 'destination');
      return ok(fake.store('tr_fake', { object: 'transfer', amount: int(p.amount), amount_reversed: 0, currency: p.currency, destination, source_transaction: p.source_transaction ?? null, transfer_group: p.transfer_group ?? null, metadata: p.metadata ?? {}, reversals: { object: 'list', data: [], has_more: false, url: '' } }));
    },
  },
  {
    kind: 'transfer_reversals',
    path: /^\/v1\/transfers\/([^/]+)\/reversals$/,
    handle: (fake, p, id = '') => {
      const transfer = fake.objects.get(id);
      if (!transfer) return missing('transfer', id);
      const left = Number(transfer.amount) - Number(transfer.amount_reversed);
      const amount = int(p.amount) ?? left;
      if (amount > left) return stripeError(400, 'invalid_request_error', `Amount (${amount}) is greater than the unreversed amount on the transfer (${left}).`, 'amount_too_large', 'amount');
      transfer.amount_reversed = Number(transfer.amount_reversed) + amount;
      const reversal = fake.store('trr_fake', { object: 'transfer_reversal', amount, currency: transfer.currency, transfer: id, metadata: p.metadata ?? {} });
      (transfer.reversals as { data: StripeObject[] } | undefined)?.data.push(reversal);
      return ok(reversal);
    },
  },
];

/** The list endpoints (GET): Stripe's list envelope, newest first, `created` ranges and cursor paging. */
interface ListEndpoint {
  kind: FakeKind;
  path: RegExp;
  items(fake: FakeStripe, pathId: string | undefined): StripeObject[] | null;
}

const LIST_ENDPOINTS: ListEndpoint[] = [
  { kind: 'balance_transactions_list', path: /^\/v1\/balance_transactions$/, items: (fake) => fake.balanceTransactions },
  { kind: 'transfers_list', path: /^\/v1\/transfers$/, items: (fake) => [...fake.objects.values()].filter((o) => o.object === 'transfer') },
  {
    kind: 'transfer_reversals_list',
    path: /^\/v1\/transfers\/([^/]+)\/reversals$/,
    items: (fake, id = '') => (fake.objects.get(id)?.reversals as { data: StripeObject[] } | undefined)?.data ?? null,
  },
];

/** One page of `items` as Stripe lists them. */
function listPage(items: StripeObject[], params: Params, url: string): { status: number; body: unknown } {
  const created = (typeof params.created === 'object' && params.created !== null ? params.created : {}) as Record<string, FormValue>;
  const bound = (name: string) => int(created[name]);
  const [gte, gt, lte, lt] = [bound('gte'), bound('gt'), bound('lte'), bound('lt')];
  const matching = items
    .filter((o) => {
      const at = Number(o.created);
      return (gte === null || at >= gte) && (gt === null || at > gt) && (lte === null || at <= lte) && (lt === null || at < lt);
    })
    .sort((a, b) => Number(b.created) - Number(a.created) || (a.id < b.id ? 1 : -1));
  const after = text(params.starting_after);
  const start = after === null ? 0 : matching.findIndex((o) => o.id === after) + 1;
  const limit = int(params.limit) ?? 10;
  const data = matching.slice(start, start + limit);
  return ok({ object: 'list', url, data, has_more: start + limit < matching.length });
}

export class FakeStripe {
  readonly violations: string[] = [];
  /** Runs after a call was done and remembered under its key, before the answer leaves. */
  beforeAnswer: ((request: FakeRequest) => Promise<void>) | null = null;
  readonly requests: FakeRequest[] = [];
  readonly objects = new Map<string, StripeObject>();
  /** The platform balance's transactions (refunds add theirs; tests plant charges, disputes and differences). */
  readonly balanceTransactions: StripeObject[] = [];
  /** The status new refunds get ('pending' for a refund that settles later). */
  refundStatus: 'succeeded' | 'pending' | 'failed' = 'succeeded';
  private readonly failures = new Map<FakeKind, FakeFailure[]>();
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
  private readonly created = new Map<FakeKind, number>();
  url = '';
  private readonly server = createServer((req, res) => void this.serve(req, res));

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** How many calls of this kind made something new (replays and failures excluded). */
  count(kind: FakeKind): number {
    return this.created.get(kind) ?? 0;
  }

  /** The requests of a kind, in order (replays included, marked). */
  requestsOf(kind: FakeKind): FakeRequest[] {
    return this.requests.filter((r) => r.kind === kind);
  }

  failNext(kind: FakeKind, failure: FakeFailure): void {
    const queue = this.failures.get(kind) ?? [];
    for (let i = 0; i < (failure.times ?? 1); i += 1) queue.push(failure);
    this.failures.set(kind, queue);
  }

  /** Sets fields of a stored object (a payment intent that succeeded, an account now active). */
  update(id: string, fields: Record<string, unknown>): void {
    const object = this.objects.get(id);
    if (!object) throw new Error(`The fake has no ${id}`);
    Object.assign(object, fields);
  }

  store(prefix: string, fields: Record<string, unknown>): StripeObject {
    const object: StripeObject = { id: `${prefix}${randomBytes(8).toString('hex')}`, created: now(), livemode: false, ...fields };
    this.objects.set(object.id, object);
    return object;
  }

  /** A balance transaction of the platform, `created` now unless given (unix seconds). */
  plantBalanceTransaction(fields: { type: string; source: string; amount: number; currency?: string; created?: number }): StripeObject {
    const txn: StripeObject = {
      id: `txn_fake${randomBytes(8).toString('hex')}`,
      object: 'balance_transaction',
      currency: 'usd',
      fee: 0,
      net: fields.amount,
      status: 'available',
      reporting_category: fields.type,
      ...fields,
      created: fields.created ?? now(),
    };
    this.balanceTransactions.push(txn);
    return txn;
  }

  /** A webhook delivery of `event` as Stripe signs it: the body and its Stripe-Signature header. */
  signedEvent(secret: string, event: object, timestampSeconds?: number): { body: string; signature: string } {
    const body = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestampSeconds === undefined ? {} : { timestamp: timestampSeconds }) });
    return { body, signature };
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const send = (status: number, body: string, replayed = false) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake${randomBytes(6).toString('hex')}`, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) });
      res.end(body);
    };
    if (req.method === 'GET') return this.serveList(req, path, send);
    const endpoint = ENDPOINTS.find((e) => e.path.test(path));
    if (!endpoint || req.method !== 'POST') {
      this.violations.push(`${req.method} ${path}: not an endpoint of the fake`);
      return send(404, JSON.stringify(stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path}).`).body));
    }
    const params = parseForm(raw);
    const idempotencyKey = header(req, 'idempotency-key');
    const stripeVersion = header(req, 'stripe-version');
    const record: FakeRequest = { kind: endpoint.kind, method: req.method, path, params, idempotencyKey, stripeVersion, replayed: false };
    this.requests.push(record);

    const problem = this.problemOf(endpoint.kind, req, params, idempotencyKey, stripeVersion);
    if (problem !== null) {
      this.violations.push(`${req.method} ${path}: ${problem}`);
      return send(400, JSON.stringify(stripeError(400, 'invalid_request_error', problem).body));
    }
    // Stripe scopes keys by account; one test account here. Failures below are not stored, as a
    // request Stripe fails before running it is not: the retry with the same key runs afresh.
    const fingerprint = `${req.method} ${path} ${raw}`;
    const previous = this.idempotent.get(idempotencyKey!);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        const error = stripeError(400, 'idempotency_error', `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`);
        return send(error.status, JSON.stringify(error.body));
      }
      record.replayed = true;
      return send(previous.status, previous.body, true);
    }
    const failure = this.failures.get(endpoint.kind)?.shift();
    if (failure?.drop) {
      req.socket.destroy();
      return;
    }
    if (failure) {
      const status = failure.status ?? 400;
      const type = failure.type ?? (status === 402 ? 'card_error' : status >= 500 ? 'api_error' : 'invalid_request_error');
      return send(status, JSON.stringify(stripeError(status, type, failure.message ?? 'The fake was told to fail this call.', failure.code).body));
    }
    const answer = endpoint.handle(this, params, endpoint.path.exec(path)?.[1]);
    const body = JSON.stringify(answer.body);
    if (answer.status < 300) this.created.set(endpoint.kind, this.count(endpoint.kind) + 1);
    this.idempotent.set(idempotencyKey!, { fingerprint, status: answer.status, body });
    // A crash test kills the caller here: Stripe did the work, the caller never hears of it.
    if (this.beforeAnswer) await this.beforeAnswer(record);
    if (!res.destroyed) send(answer.status, body);
  }

  /** A list request: checked like a call (no Idempotency-Key: Stripe takes none on GET), answered from the fake's objects. */
  private serveList(req: IncomingMessage, path: string, send: (status: number, body: string) => void): void {
    const endpoint = LIST_ENDPOINTS.find((e) => e.path.test(path));
    if (!endpoint) {
      this.violations.push(`GET ${path}: not an endpoint of the fake`);
      return send(404, JSON.stringify(stripeError(404, 'invalid_request_error', `Unrecognized request URL (GET: ${path}).`).body));
    }
    const params = parseForm((req.url ?? '').split('?')[1] ?? '');
    const stripeVersion = header(req, 'stripe-version');
    this.requests.push({ kind: endpoint.kind, method: 'GET', path, params, idempotencyKey: undefined, stripeVersion, replayed: false });
    const problem = this.problemOf(endpoint.kind, req, params, undefined, stripeVersion, false);
    if (problem !== null) {
      this.violations.push(`GET ${path}: ${problem}`);
      return send(400, JSON.stringify(stripeError(400, 'invalid_request_error', problem).body));
    }
    const failure = this.failures.get(endpoint.kind)?.shift();
    if (failure?.drop) {
      req.socket.destroy();
      return;
    }
    if (failure) {
      const status = failure.status ?? 500;
      return send(status, JSON.stringify(stripeError(status, failure.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), failure.message ?? 'The fake was told to fail this call.').body));
    }
    const items = endpoint.items(this, endpoint.path.exec(path)?.[1]);
    if (items === null) return send(404, JSON.stringify(missing('transfer', endpoint.path.exec(path)?.[1] ?? '').body));
    const answer = listPage(items, params, path);
    send(answer.status, JSON.stringify(answer.body));
  }

  /** What breaks the rules of the call, or null. */
  private problemOf(kind: FakeKind, req: IncomingMessage, params: Params, idempotencyKey: string | undefined, stripeVersion: string | undefined, keyed = true): string | null {
    if (!/^Bearer (sk|rk)_(test|live)_\w+$/.test(header(req, 'authorization') ?? '')) return 'no secret key in Authorization';
    if (stripeVersion !== STRIPE_API_VERSION) return `Stripe-Version is ${stripeVersion ?? 'missing'}, not the pinned ${STRIPE_API_VERSION}`;
    // The SDK keys every POST it is not given a key for with a random stripe-node-retry-… one:
    // such a key means the driver passed none, and a retry of ours would not be recognised.
    if (keyed && (idempotencyKey === undefined || idempotencyKey.startsWith('stripe-node-retry-'))) return `no Idempotency-Key of the caller's (got ${idempotencyKey ?? 'none'})`;
    const rules = PARAMS[kind];
    const unknown = Object.keys(params).filter((name) => !rules.allowed.includes(name));
    if (unknown.length > 0) return `Received unknown parameter: ${unknown.join(', ')}`;
    const absent = rules.required.filter((name) => params[name] === undefined);
    if (absent.length > 0) return `Missing required param: ${absent.join(', ')}.`;
    return null;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().listen();
}
