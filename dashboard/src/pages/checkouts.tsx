// Checkouts (docs/checkouts.md): the list (filter by buyer and status) and a checkout's page with
// its amounts, its payment and its orders, in item order, each linked to its own page (which
// links its listing: the table keeps to what fits, the money per seller).
import { useState } from 'react';
import { api, call, idOf, type Mode } from '../api/client';
import { Link } from '../router';
import { ListingRef, PartyRef } from '../ui/refs';
import { Badge, DefinitionList, Empty, ErrorNotice, Field, formatDate, formatMoney, Json, Loading, PageHeader, PagedTable, Select } from '../ui/components';
import { useLoad } from '../ui/hooks';

interface Scope {
  marketplace: string;
  mode: Mode;
}

const base = (scope: Scope) => `/m/${scope.marketplace}/${scope.mode}`;

const CHECKOUT_STATUSES: Array<[string, string]> = [
  ['', 'All statuses'],
  ['awaiting_payment', 'awaiting payment'],
  ['completed', 'completed'],
  ['expired', 'expired'],
  ['cancelled', 'cancelled'],
];

export function CheckoutsPage({ scope }: { scope: Scope }) {
  const [status, setStatus] = useState('');
  const [buyer, setBuyer] = useState('');
  const [appliedBuyer, setAppliedBuyer] = useState('');
  return (
    <>
      <PageHeader title="Checkouts" description="Carts paid at once: one order per item, one payment for all of them." />
      <div className="toolbar">
        <form
          className="form-inline"
          onSubmit={(event) => {
            event.preventDefault();
            setAppliedBuyer(buyer.trim());
          }}
        >
          <Field label="Buyer ID" name="buyer" value={buyer} onChange={setBuyer} placeholder="byr_…" />
          <button type="submit" className="button">
            Filter
          </button>
        </form>
        <Select label="Status" name="status" value={status} onChange={setStatus} options={CHECKOUT_STATUSES} />
      </div>
      <PagedTable
        caption="Checkouts"
        pageSize={25}
        deps={[scope.marketplace, scope.mode, status, appliedBuyer]}
        load={(cursor, limit) =>
          call(
            api.GET('/v1/checkouts', {
              params: { query: { limit, starting_after: cursor, expand: ['buyer'], ...(status ? { status: status as 'completed' } : {}), ...(appliedBuyer ? { buyer: appliedBuyer } : {}) } },
            }),
          )
        }
        empty={<Empty title="No checkouts">Checkouts appear here when a storefront creates them through the API (POST /v1/checkouts).</Empty>}
        columns={[
          { header: 'Checkout', cell: (c) => <Link to={`${base(scope)}/checkouts/${c.id}`}>{c.id}</Link> },
          { header: 'Total', cell: (c) => formatMoney(c.total, c.currency), className: 'num' },
          { header: 'Items', cell: (c) => String(c.orders.length), className: 'num' },
          { header: 'Status', cell: (c) => <Badge status={c.status} /> },
          { header: 'Buyer', cell: (c) => <PartyRef to={`${base(scope)}/buyers`} party={c.buyer} /> },
          { header: 'Created', cell: (c) => formatDate(c.created_at) },
        ]}
      />
    </>
  );
}

export function CheckoutPage({ scope, id }: { scope: Scope; id: string }) {
  const checkout = useLoad(() => call(api.GET('/v1/checkouts/{id}', { params: { path: { id }, query: { expand: ['buyer'] } } })), [id]);
  if (checkout.error) return <ErrorNotice error={checkout.error} />;
  if (!checkout.data) return <Loading />;
  const c = checkout.data;
  // The list answers newest first; the checkout's own list is the item order.
  const position = new Map(c.orders.map((order, index) => [order, index]));
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/checkouts`}>Checkouts</Link> / <code>{c.id}</code>
      </p>
      <PageHeader title={`${formatMoney(c.total, c.currency)} checkout`}>
        <Badge status={c.status} />
      </PageHeader>
      <section className="card">
        <DefinitionList
          items={[
            ['Buyer', <PartyRef key="b" to={`${base(scope)}/buyers`} party={c.buyer} />],
            ['Items', String(c.orders.length)],
            ['Subtotal', formatMoney(c.subtotal, c.currency)],
            ['Fees', formatMoney(c.fee_amount, c.currency)],
            ['Total', formatMoney(c.total, c.currency)],
            ['Payment', c.payment ? <Link key="p" to={`${base(scope)}/payments/${idOf(c.payment)}`}>{idOf(c.payment)}</Link> : 'None (payments are off in this mode)'],
            ['Payment page', c.payment_url && c.status === 'awaiting_payment' ? <a key="u" href={c.payment_url} rel="noreferrer noopener" target="_blank">Open the buyer’s payment page</a> : '—'],
            ['Expires', formatDate(c.expires_at)],
            ['Created', formatDate(c.created_at)],
            ['Updated', formatDate(c.updated_at)],
          ]}
        />
      </section>
      <h2>Orders</h2>
      <PagedTable
        caption="Orders of the checkout"
        deps={[id]}
        pageSize={50}
        load={async (cursor, limit) => {
          const page = await call(api.GET('/v1/orders', { params: { query: { checkout: id, limit, starting_after: cursor, expand: ['seller', 'listing'] } } }));
          return { ...page, data: [...page.data].sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0)) };
        }}
        empty={<Empty title="No orders" />}
        columns={[
          { header: 'Order', cell: (o) => <Link to={`${base(scope)}/orders/${o.id}`}>{o.id}</Link> },
          { header: 'Listing', cell: (o) => <ListingRef to={`${base(scope)}/listings`} listing={o.listing} /> },
          { header: 'Seller', cell: (o) => <PartyRef to={`${base(scope)}/sellers`} party={o.seller} /> },
          { header: 'Quantity', cell: (o) => String(o.quantity), className: 'num' },
          { header: 'Subtotal', cell: (o) => formatMoney(o.subtotal, o.currency), className: 'num' },
          { header: 'Fee', cell: (o) => formatMoney(o.fee_amount, o.currency), className: 'num' },
          { header: 'Total', cell: (o) => formatMoney(o.total, o.currency), className: 'num' },
          { header: 'State', cell: (o) => <Badge status={o.state} /> },
        ]}
      />
      <details className="card">
        <summary>Checkout JSON</summary>
        <Json value={c} label="Checkout JSON" />
      </details>
    </>
  );
}
