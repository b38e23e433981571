// Orders (transition log, payment, refunds, ledger, dispute), listings, sellers (balance) and buyers
// (suspend, erase with a confirmation), flags and the moderation log, the test clock, the overview.
import { useId, useRef, useState, type FormEvent } from 'react';
import { api, call, idOf, type Mode } from '../api/client';
import { Link, navigate } from '../router';
import { canWrite, useSession } from '../session';
import { Badge, ConfirmButton, DefinitionList, Empty, ErrorNotice, Field, formatDate, formatMoney, Json, Loading, Notice, PageHeader, PagedTable, Select } from '../ui/components';
import { useAction, useLoad } from '../ui/hooks';
import { OrderLedgerTable, SellerBalanceCard } from './ledger';
import { RefundsTable } from './payments';
import { PublishableKeys } from './publishable-keys';
import { OrderActions, PaymentLink } from './order-actions';
import { DailyTotalsCharts } from './daily-totals';
import { ListingRef, PartyRef } from '../ui/refs';

interface Scope {
  marketplace: string;
  mode: Mode;
}

const base = (scope: Scope) => `/m/${scope.marketplace}/${scope.mode}`;

const ORDER_STATES = ['', 'awaiting_payment', 'committed', 'claimed', 'disputed', 'completed', 'cancelled', 'expired'];

export function OrdersPage({ scope }: { scope: Scope }) {
  const [state, setState] = useState('');
  const [find, setFind] = useState('');
  return (
    <>
      <PageHeader title="Orders" />
      <div className="toolbar">
        <form
          className="form-inline"
          onSubmit={(event) => {
            event.preventDefault();
            const id = find.trim();
            if (id) navigate(`${base(scope)}/orders/${encodeURIComponent(id)}`);
          }}
        >
          <Field label="Find an order by ID" name="order" value={find} onChange={setFind} placeholder="ord_…" />
          <button type="submit" className="button">
            Open
          </button>
        </form>
        <Select label="State" name="state" value={state} onChange={setState} options={ORDER_STATES.map((s) => [s, s ? s.replace(/_/g, ' ') : 'All states'])} />
      </div>
      <PagedTable
        caption="Orders"
        pageSize={25}
        deps={[scope.marketplace, scope.mode, state]}
        load={(cursor, limit) => call(api.GET('/v1/orders', { params: { query: { limit, starting_after: cursor, expand: ['buyer', 'seller', 'listing'], ...(state ? { state: state as 'committed' } : {}) } } }))}
        empty={<Empty title="No orders yet">Orders appear here when buyers place them through the API.</Empty>}
        columns={[
          { header: 'Order', cell: (o) => <Link to={`${base(scope)}/orders/${o.id}`}>{o.id}</Link> },
          { header: 'Total', cell: (o) => formatMoney(o.total, o.currency), className: 'num' },
          { header: 'State', cell: (o) => <Badge status={o.state} /> },
          { header: 'Listing', cell: (o) => <ListingRef to={`${base(scope)}/listings`} listing={o.listing} /> },
          { header: 'Buyer', cell: (o) => <PartyRef to={`${base(scope)}/buyers`} party={o.buyer} /> },
          { header: 'Seller', cell: (o) => <PartyRef to={`${base(scope)}/sellers`} party={o.seller} /> },
          { header: 'Created', cell: (o) => formatDate(o.created_at) },
        ]}
      />
    </>
  );
}

export function OrderPage({ scope, id }: { scope: Scope; id: string }) {
  const { workspace } = useSession();
  // An action changes the payment, refunds, ledger and dispute below: they are read again.
  const [acted, setActed] = useState(0);
  const order = useLoad(() => call(api.GET('/v1/orders/{id}', { params: { path: { id }, query: { expand: ['buyer', 'seller', 'listing', 'payment', 'checkout', 'dispute'] } } })), [id]);
  if (order.error) return <ErrorNotice error={order.error} />;
  if (!order.data) return <Loading />;
  const o = order.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/orders`}>Orders</Link> / <code>{o.id}</code>
      </p>
      <PageHeader title={`${formatMoney(o.total, o.currency)} order`}>
        <Badge status={o.state} />
        {canWrite(workspace.role) && <OrderActions order={o} onDone={() => { order.reload(); setActed((n) => n + 1); }} />}
      </PageHeader>
      <PaymentLink order={o} />
      <section className="card">
        <DefinitionList
          items={[
            ['Listing', <ListingRef key="l" to={`${base(scope)}/listings`} listing={o.listing} />],
            ['Buyer', <PartyRef key="b" to={`${base(scope)}/buyers`} party={o.buyer} />],
            ['Seller', <PartyRef key="s" to={`${base(scope)}/sellers`} party={o.seller} />],
            ['Checkout', o.checkout ? <Link key="c" to={`${base(scope)}/checkouts/${idOf(o.checkout)}`}>{idOf(o.checkout)}</Link> : '—'],
            ['Quantity', String(o.quantity)],
            ['Subtotal', formatMoney(o.subtotal, o.currency)],
            ['Fee', formatMoney(o.fee_amount, o.currency)],
            ['Deadline', formatDate(o.deadline)],
            ['Created', formatDate(o.created_at)],
          ]}
        />
      </section>
      <h2>Transitions</h2>
      <div key={acted}>
      <PagedTable
        caption="Transitions"
        deps={[id]}
        pageSize={50}
        load={() => call(api.GET('/v1/orders/{id}/events', { params: { path: { id } } }))}
        empty={<Empty title="No transitions" />}
        columns={[
          { header: 'Transition', cell: (t) => t.transition },
          { header: 'From', cell: (t) => (t.from ? <Badge status={t.from} /> : '—') },
          { header: 'To', cell: (t) => <Badge status={t.to} /> },
          { header: 'Actor', cell: (t) => t.actor ?? '—' },
          { header: 'Reason', cell: (t) => t.reason ?? '—', className: 'wrap' },
          { header: 'At', cell: (t) => formatDate(t.created_at) },
        ]}
      />
      <h2>Payment</h2>
      <PagedTable
        caption="Payments"
        deps={[id]}
        load={(cursor, limit) => call(api.GET('/v1/payments', { params: { query: { order: id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No payment">Payments are off in this mode, or the buyer has not paid yet.</Empty>}
        columns={[
          { header: 'Payment', cell: (p) => <Link to={`${base(scope)}/payments/${p.id}`}>{p.id}</Link> },
          { header: 'Amount', cell: (p) => formatMoney(p.amount, p.currency), className: 'num' },
          { header: 'Status', cell: (p) => <Badge status={p.status} /> },
          {
            // A success report with another amount or currency was refused: someone must look at the processor.
            header: 'Check',
            cell: (p) =>
              p.amount_mismatch ? (
                <span className="badge badge-red" title={p.last_failure ?? undefined}>
                  amount mismatch: {formatMoney(p.amount_mismatch.amount, p.amount_mismatch.currency)} reported
                </span>
              ) : (
                <span className="muted">—</span>
              ),
            className: 'wrap',
          },
          { header: 'Refunded', cell: (p) => formatMoney(p.amount_refunded, p.currency), className: 'num' },
          { header: 'Release', cell: (p) => <Badge status={p.release?.status} /> },
          { header: 'Paid', cell: (p) => formatDate(p.paid_at) },
        ]}
      />
      <h2>Refunds</h2>
      <RefundsTable of={{ order: id }} caption="Refunds" />
      <h2>Ledger</h2>
      <OrderLedgerTable order={id} />
      <h2>Dispute</h2>
      <PagedTable
        caption="Disputes"
        deps={[id]}
        load={(cursor, limit) => call(api.GET('/v1/disputes', { params: { query: { order: id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No dispute" />}
        columns={[
          { header: 'Dispute', cell: (d) => <code>{d.id}</code> },
          { header: 'Status', cell: (d) => <Badge status={d.status} /> },
          { header: 'Reason', cell: (d) => String((d as { reason?: string }).reason ?? '—') },
          { header: 'Created', cell: (d) => formatDate(d.created_at) },
        ]}
      />
      </div>
      <details className="card">
        <summary>Order JSON</summary>
        <Json value={o} label="Order JSON" />
      </details>
    </>
  );
}

export function ListingsPage({ scope }: { scope: Scope }) {
  const [status, setStatus] = useState('');
  const [title, setTitle] = useState('');
  const [applied, setApplied] = useState('');
  return (
    <>
      <PageHeader title="Listings" />
      <div className="toolbar">
        <form
          className="form-inline"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            setApplied(title.trim());
          }}
        >
          <Field label="Search listings by title" name="title" value={title} onChange={setTitle} placeholder="Starts with…" />
          <button type="submit" className="button">
            Search
          </button>
        </form>
        <Select label="Status" name="status" value={status} onChange={setStatus} options={[['', 'All'], ['draft', 'Draft'], ['published', 'Published'], ['sold', 'Sold'], ['expired', 'Expired'], ['removed', 'Removed']]} />
      </div>
      <PagedTable
        caption="Listings"
        deps={[scope.marketplace, scope.mode, status, applied]}
        load={(cursor, limit) => call(api.GET('/v1/listings', { params: { query: { limit, starting_after: cursor, expand: ['seller'], ...(applied ? { title: applied } : {}), ...(status ? { status: status as 'draft' } : {}) } } }))}
        empty={<Empty title="No listings" />}
        columns={[
          { header: 'Title', cell: (l) => <Link to={`${base(scope)}/listings/${l.id}`}>{l.title}</Link>, className: 'wrap' },
          { header: 'Price', cell: (l) => formatMoney(l.price.amount, l.price.currency), className: 'num' },
          { header: 'Status', cell: (l) => <Badge status={l.status} /> },
          { header: 'Seller', cell: (l) => <PartyRef to={`${base(scope)}/sellers`} party={l.seller} /> },
          { header: 'Created', cell: (l) => formatDate(l.created_at) },
        ]}
      />
    </>
  );
}

export function ListingPage({ scope, id }: { scope: Scope; id: string }) {
  const listing = useLoad(() => call(api.GET('/v1/listings/{id}', { params: { path: { id }, query: { expand: ['seller'] } } })), [id]);
  if (listing.error) return <ErrorNotice error={listing.error} />;
  if (!listing.data) return <Loading />;
  const l = listing.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/listings`}>Listings</Link> / <code>{l.id}</code>
      </p>
      <PageHeader title={l.title}>
        <Badge status={l.status} />
      </PageHeader>
      <section className="card">
        <DefinitionList
          items={[
            ['Price', formatMoney(l.price.amount, l.price.currency)],
            ['Seller', <PartyRef key="s" to={`${base(scope)}/sellers`} party={l.seller} />],
            ['Created', formatDate(l.created_at)],
          ]}
        />
      </section>
      <Json value={l} label="Listing JSON" />
    </>
  );
}

export function SellersPage({ scope }: { scope: Scope }) {
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState<PartySearch>({});
  return (
    <>
      <PageHeader title="Sellers" />
      <div className="toolbar">
        <PartySearchForm label="Search sellers by name or email" onSearch={setSearch} />
        <Select label="Status" name="status" value={status} onChange={setStatus} options={[['', 'All'], ['active', 'Active'], ['suspended', 'Suspended']]} />
      </div>
      <PagedTable
        caption="Sellers"
        deps={[scope.marketplace, scope.mode, status, search.name, search.email]}
        load={(cursor, limit) => call(api.GET('/v1/sellers', { params: { query: { limit, starting_after: cursor, ...search, ...(status ? { status: status as 'active' } : {}) } } }))}
        empty={<Empty title="No sellers" />}
        columns={[
          { header: 'Seller', cell: (s) => <PartyRef to={`${base(scope)}/sellers`} party={s} /> },
          { header: 'Status', cell: (s) => <Badge status={s.erased_at ? 'erased' : s.status} /> },
          { header: 'Verification', cell: (s) => <Badge status={s.verification?.status} /> },
          { header: 'Created', cell: (s) => formatDate(s.created_at) },
        ]}
      />
    </>
  );
}

export function SellerPage({ scope, id }: { scope: Scope; id: string }) {
  const { workspace } = useSession();
  const seller = useLoad(() => call(api.GET('/v1/sellers/{id}', { params: { path: { id } } })), [id]);
  const [reason, setReason] = useState('');
  const action = useAction();
  if (seller.error) return <ErrorNotice error={seller.error} />;
  if (!seller.data) return <Loading />;
  const s = seller.data;
  const writable = canWrite(workspace.role) && !s.erased_at;
  const suspend = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(() => call(api.POST('/v1/sellers/{id}/suspend', { params: { path: { id } }, body: { reason } })));
    if (ok) seller.reload();
  };
  const unsuspend = async () => {
    const ok = await action.run(() => call(api.POST('/v1/sellers/{id}/unsuspend', { params: { path: { id } } })));
    if (ok) seller.reload();
  };
  const erase = async () => {
    const ok = await action.run(() => call(api.DELETE('/v1/sellers/{id}', { params: { path: { id } } })));
    if (ok) seller.reload();
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/sellers`}>Sellers</Link> / <code>{s.id}</code>
      </p>
      <PageHeader title={s.name ?? s.id}>
        <Badge status={s.erased_at ? 'erased' : s.status} />
        {writable && s.status === 'suspended' && (
          <button type="button" className="button" onClick={() => void unsuspend()}>
            Unsuspend
          </button>
        )}
        {writable && (
          <ConfirmButton label="Erase personal data" title="Erase this seller's personal data?" body={<p>Name, email, external ID and metadata are removed for good. Orders and money records stay. This cannot be undone.</p>} confirmLabel="Erase seller" danger onConfirm={() => void erase()} />
        )}
      </PageHeader>
      <ErrorNotice error={action.error} />
      <section className="card">
        <DefinitionList
          items={[
            ['Email', s.email ?? '—'],
            ['External ID', s.external_id ?? '—'],
            ['Verification', <Badge key="v" status={s.verification?.status} />],
            ['Created', formatDate(s.created_at)],
            ['Erased', formatDate(s.erased_at)],
          ]}
        />
      </section>
      <h2>Balance</h2>
      <SellerBalanceCard seller={id} />
      {writable && s.status !== 'suspended' && (
        <form className="card form form-inline" onSubmit={suspend}>
          <h2>Suspend</h2>
          <Field label="Reason" name="reason" value={reason} onChange={setReason} required error={action.error} />
          <button type="submit" className="button button-danger" disabled={action.busy}>
            Suspend seller
          </button>
        </form>
      )}
      <h2>Listings</h2>
      <PagedTable
        caption="Listings of the seller"
        deps={[id]}
        load={(cursor, limit) => call(api.GET('/v1/listings', { params: { query: { seller: id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No listings" />}
        columns={[
          { header: 'Title', cell: (l) => <Link to={`${base(scope)}/listings/${l.id}`}>{l.title}</Link>, className: 'wrap' },
          { header: 'Status', cell: (l) => <Badge status={l.status} /> },
        ]}
      />
      <details className="card">
        <summary>Seller JSON</summary>
        <Json value={s} label="Seller JSON" />
      </details>
    </>
  );
}

export function BuyersPage({ scope }: { scope: Scope }) {
  const [search, setSearch] = useState<PartySearch>({});
  return (
    <>
      <PageHeader title="Buyers" />
      <div className="toolbar">
        <PartySearchForm label="Search buyers by name or email" onSearch={setSearch} />
      </div>
      <PagedTable
        caption="Buyers"
        deps={[scope.marketplace, scope.mode, search.name, search.email]}
        load={(cursor, limit) => call(api.GET('/v1/buyers', { params: { query: { limit, starting_after: cursor, ...search } } }))}
        empty={<Empty title="No buyers" />}
        columns={[
          { header: 'Buyer', cell: (b) => <PartyRef to={`${base(scope)}/buyers`} party={b} /> },
          { header: 'Status', cell: (b) => <Badge status={b.erased_at ? 'erased' : 'active'} /> },
          { header: 'Created', cell: (b) => formatDate(b.created_at) },
        ]}
      />
    </>
  );
}

export function BuyerPage({ scope, id }: { scope: Scope; id: string }) {
  const { workspace } = useSession();
  const buyer = useLoad(() => call(api.GET('/v1/buyers/{id}', { params: { path: { id } } })), [id]);
  const action = useAction();
  if (buyer.error) return <ErrorNotice error={buyer.error} />;
  if (!buyer.data) return <Loading />;
  const b = buyer.data;
  const erase = async () => {
    const ok = await action.run(() => call(api.DELETE('/v1/buyers/{id}', { params: { path: { id } } })));
    if (ok) buyer.reload();
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/buyers`}>Buyers</Link> / <code>{b.id}</code>
      </p>
      <PageHeader title={b.name ?? b.id}>
        <Badge status={b.erased_at ? 'erased' : 'active'} />
        {canWrite(workspace.role) && !b.erased_at && (
          <ConfirmButton label="Erase personal data" title="Erase this buyer's personal data?" body={<p>Name, email, external ID and metadata are removed for good. Orders and money records stay. This cannot be undone.</p>} confirmLabel="Erase buyer" danger onConfirm={() => void erase()} />
        )}
      </PageHeader>
      <ErrorNotice error={action.error} />
      <section className="card">
        <DefinitionList
          items={[
            ['Email', b.email ?? '—'],
            ['External ID', b.external_id ?? '—'],
            ['Created', formatDate(b.created_at)],
            ['Erased', formatDate(b.erased_at)],
          ]}
        />
      </section>
      <h2>Orders</h2>
      <PagedTable
        caption="Orders of the buyer"
        deps={[id]}
        load={(cursor, limit) => call(api.GET('/v1/orders', { params: { query: { buyer: id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No orders" />}
        columns={[
          { header: 'Order', cell: (o) => <Link to={`${base(scope)}/orders/${o.id}`}>{o.id}</Link> },
          { header: 'Total', cell: (o) => formatMoney(o.total, o.currency), className: 'num' },
          { header: 'State', cell: (o) => <Badge status={o.state} /> },
        ]}
      />
    </>
  );
}

const RESOLUTIONS: Record<string, Array<[string, string]>> = {
  listing: [['dismiss', 'Dismiss'], ['remove_listing', 'Remove the listing']],
  review: [['dismiss', 'Dismiss'], ['remove_review', 'Remove the review']],
  seller: [['dismiss', 'Dismiss'], ['suspend_seller', 'Suspend the seller']],
  buyer: [['dismiss', 'Dismiss']],
};

/** Resolves one flag in a dialog: the action and a note, kept in the moderation log. */
function ResolveFlag({ flag, onResolved }: { flag: { id: string; target_type: string; target: string }; onResolved: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const options = RESOLUTIONS[flag.target_type] ?? [['dismiss', 'Dismiss']];
  const [action, setAction] = useState(options[0]![0]);
  const [note, setNote] = useState('');
  const run = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await run.run(() => call(api.POST('/v1/flags/{id}/resolve', { params: { path: { id: flag.id } }, body: { action: action as 'dismiss', ...(note.trim() ? { note } : {}) } })));
    if (ok) {
      ref.current?.close();
      onResolved();
    }
  };
  return (
    <>
      <button type="button" className="button button-small" onClick={() => ref.current?.showModal()}>
        Resolve
      </button>
      <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
        <form className="form" onSubmit={submit}>
          <h2 id={titleId}>Resolve the flag on {flag.target_type} {flag.target}</h2>
          <ErrorNotice error={run.error} />
          <Select label="Action" name="action" value={action} onChange={setAction} options={options} />
          <Field label="Note (kept in the moderation log)" name="note" value={note} onChange={setNote} error={run.error} />
          <div className="actions">
            <button type="button" className="button" onClick={() => ref.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={run.busy}>
              Resolve flag
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

export function FlagsPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const [status, setStatus] = useState('');
  const [tick, setTick] = useState(0);
  return (
    <>
      <PageHeader title="Flags" description="Reports of listings, sellers and reviews." />
      <div className="toolbar">
        <Select label="Status" name="status" value={status} onChange={setStatus} options={[['', 'All'], ['open', 'Open'], ['resolved', 'Resolved']]} />
      </div>
      <PagedTable
        caption="Flags"
        deps={[scope.marketplace, scope.mode, status, tick]}
        load={(cursor, limit) => call(api.GET('/v1/flags', { params: { query: { limit, starting_after: cursor, ...(status ? { status: status as 'open' } : {}) } } }))}
        empty={<Empty title="No flags" />}
        columns={[
          { header: 'Target', cell: (f) => `${f.target_type} ${f.target}` },
          { header: 'Reason', cell: (f) => f.reason.replace(/_/g, ' ') },
          { header: 'Description', cell: (f) => f.description ?? '—', className: 'wrap' },
          { header: 'Status', cell: (f) => <Badge status={f.status} /> },
          { header: 'Created', cell: (f) => formatDate(f.created_at) },
          { header: 'Actions', cell: (f) => (f.status === 'open' && canWrite(workspace.role) ? <ResolveFlag flag={f} onResolved={() => setTick((t) => t + 1)} /> : null) },
        ]}
      />
    </>
  );
}

export function ModerationPage({ scope }: { scope: Scope }) {
  return (
    <>
      <PageHeader title="Moderation log" description="Every moderation action, newest first." />
      <PagedTable
        caption="Moderation actions"
        deps={[scope.marketplace, scope.mode]}
        load={(cursor, limit) => call(api.GET('/v1/moderation_actions', { params: { query: { limit, starting_after: cursor } } }))}
        empty={<Empty title="No moderation actions" />}
        columns={[
          { header: 'Action', cell: (a) => a.action.replace(/_/g, ' ') },
          { header: 'Target', cell: (a) => `${a.target_type} ${a.target}` },
          { header: 'Reason', cell: (a) => a.reason ?? '—', className: 'wrap' },
          { header: 'At', cell: (a) => formatDate(a.created_at) },
        ]}
      />
    </>
  );
}

export function ClockPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const clock = useLoad(() => call(api.GET('/v1/test_helpers/clock', {})), [scope.marketplace]);
  const [seconds, setSeconds] = useState('3600');
  const action = useAction();
  if (scope.mode !== 'test') return <Notice kind="warning">The test clock exists only in test mode.</Notice>;
  const advance = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(() => call(api.POST('/v1/test_helpers/clock/advance', { body: { seconds: Number(seconds) } })));
    if (ok) clock.reload();
  };
  return (
    <>
      <PageHeader title="Test clock" description="Move test mode's clock forward: every timer that comes due runs before the answer returns." />
      <ErrorNotice error={clock.error ?? action.error} />
      {clock.data ? (
        <section className="card">
          <DefinitionList
            items={[
              ['Now (test mode)', formatDate(clock.data.now)],
              ['Ahead of real time', `${clock.data.offset_seconds} seconds`],
            ]}
          />
        </section>
      ) : (
        <Loading />
      )}
      {canWrite(workspace.role) && (
        <form className="card form form-inline" onSubmit={advance}>
          <Select label="Advance by" name="seconds" value={seconds} onChange={setSeconds} options={[['60', '1 minute'], ['3600', '1 hour'], ['86400', '1 day'], ['604800', '7 days'], ['1209600', '14 days']]} />
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Advance clock
          </button>
        </form>
      )}
    </>
  );
}

export function OverviewPage({ scope }: { scope: Scope }) {
  const marketplace = useLoad(() => call(api.GET('/v1/marketplace', {})), [scope.marketplace, scope.mode]);
  const orders = useLoad(() => call(api.GET('/v1/orders', { params: { query: { limit: 5 } } })), [scope.marketplace, scope.mode]);
  if (marketplace.error) return <ErrorNotice error={marketplace.error} />;
  if (!marketplace.data) return <Loading />;
  const m = marketplace.data;
  const settings = m.settings as { payments_enabled?: boolean; platform_fee?: { percent_bps: number } };
  return (
    <>
      <PageHeader title={m.name} description={`${m.currency} · ${m.livemode ? 'Live mode' : 'Test mode'} · ${m.id}`} />
      {m.read_only && <Notice kind="warning">{m.read_only.message}</Notice>}
      <div className="tiles">
        <section className="tile">
          <h2>Payments</h2>
          <p className="tile-figure">{settings.payments_enabled ? 'Enabled' : 'Disabled'}</p>
          <Link to={`${base(scope)}/processor`}>Processor</Link>
        </section>
        <section className="tile">
          <h2>Platform fee</h2>
          <p className="tile-figure">{((settings.platform_fee?.percent_bps ?? 0) / 100).toFixed(2)} %</p>
          <Link to={`${base(scope)}/settings`}>Settings</Link>
        </section>
        <section className="tile">
          <h2>Developers</h2>
          <p className="tile-figure">API &amp; webhooks</p>
          <Link to={`${base(scope)}/api-keys`}>API keys</Link> · <Link to={`${base(scope)}/webhooks`}>Webhooks</Link>
        </section>
      </div>
      <DailyTotalsCharts scope={scope} paymentsEnabled={settings.payments_enabled === true} />
      <PublishableKeys scope={scope} />
      <h2>Recent orders</h2>
      {orders.data && orders.data.data.length === 0 ? (
        <Empty title="No orders yet" />
      ) : (
        <ul className="plain-list">
          {orders.data?.data.map((o) => (
            <li key={o.id}>
              <Link to={`${base(scope)}/orders/${o.id}`}>{o.id}</Link> {formatMoney(o.total, o.currency)} <Badge status={o.state} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

interface PartySearch {
  name?: string;
  email?: string;
}

/**
 * One box for a name or an email: text with an @ is looked up as the whole email address, other
 * text as the start of the name (the API's `email` and `name` filters). The search stays in the
 * page's state, never in its URL (URLs carry ids only).
 */
function PartySearchForm({ label, onSearch }: { label: string; onSearch: (search: PartySearch) => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="form-inline"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const value = text.trim();
        onSearch(value === '' ? {} : value.includes('@') ? { email: value } : { name: value });
      }}
    >
      <Field label={label} name="search" value={text} onChange={setText} placeholder="Name, or whole email" />
      <button type="submit" className="button">
        Search
      </button>
    </form>
  );
}
