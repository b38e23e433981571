// A payment's page: an order's payment, a checkout's charge, or an order's share of a charge
// (docs/checkouts.md), with what it links to and its refunds.
import type { ReactNode } from 'react';
import { api, call, type Mode } from '../api/client';
import { Link } from '../router';
import { Badge, DefinitionList, Empty, ErrorNotice, formatDate, formatMoney, Json, Loading, PageHeader, PagedTable, TableWrap } from '../ui/components';
import { useLoad } from '../ui/hooks';

interface Scope {
  marketplace: string;
  mode: Mode;
}

const base = (scope: Scope) => `/m/${scope.marketplace}/${scope.mode}`;

export function PaymentPage({ scope, id }: { scope: Scope; id: string }) {
  const payment = useLoad(() => call(api.GET('/v1/payments/{id}', { params: { path: { id } } })), [id]);
  if (payment.error) return <ErrorNotice error={payment.error} />;
  if (!payment.data) return <Loading />;
  const p = payment.data;
  const charge = p.checkout !== null && p.charge_payment === null;
  const kind = p.checkout ? (charge ? 'checkout charge' : 'share of a checkout’s charge') : 'payment';
  const link = (section: string, target: string | null) => (target ? <Link key={section} to={`${base(scope)}/${section}/${target}`}>{target}</Link> : '—');
  return (
    <>
      <p className="breadcrumb">
        {p.checkout ? <Link to={`${base(scope)}/checkouts/${p.checkout}`}>Checkout</Link> : p.order ? <Link to={`${base(scope)}/orders/${p.order}`}>Order</Link> : 'Payment'} / <code>{p.id}</code>
      </p>
      <PageHeader title={`${formatMoney(p.amount, p.currency)} ${kind}`}>
        <Badge status={p.status} />
      </PageHeader>
      <section className="card">
        <DefinitionList
          items={[
            ['Order', link('orders', p.order)],
            ['Checkout', link('checkouts', p.checkout)],
            ['Charge', link('payments', p.charge_payment)],
            ['Amount', formatMoney(p.amount, p.currency)],
            ['Fee', formatMoney(p.fee_amount, p.currency)],
            // A charge is never released or refunded itself: its shares are (the table below).
            ...(charge
              ? []
              : ([
                  ['Refunded', formatMoney(p.amount_refunded, p.currency)],
                  ['Release', <Badge key="r" status={p.release?.status} />],
                ] as Array<[string, ReactNode]>)),
            ['Last failure', p.last_failure ?? '—'],
            ['Paid', formatDate(p.paid_at)],
            ['Created', formatDate(p.created_at)],
          ]}
        />
      </section>
      {charge && p.checkout ? <Shares scope={scope} checkout={p.checkout} charge={p.id} /> : <Refunds id={p.id} />}
      <details className="card">
        <summary>Payment JSON</summary>
        <Json value={p} label="Payment JSON" />
      </details>
    </>
  );
}

/**
 * A charge's shares, one per order of its checkout in item order: each holds its order's release
 * and refunds. Read through the orders (a checkout has at most 50), one request each.
 */
function Shares({ scope, checkout, charge }: { scope: Scope; checkout: string; charge: string }) {
  const shares = useLoad(async () => {
    const c = await call(api.GET('/v1/checkouts/{id}', { params: { path: { id: checkout } } }));
    const pages = await Promise.all(c.orders.map((order) => call(api.GET('/v1/payments', { params: { query: { order, limit: 10 } } }))));
    return pages.flatMap((page) => page.data.filter((payment) => payment.charge_payment === charge));
  }, [checkout, charge]);
  return (
    <>
      <h2>Shares</h2>
      <p className="muted">One per order, in item order: each holds its order's release and refunds (docs/checkouts.md).</p>
      <ErrorNotice error={shares.error} />
      {!shares.data ? (
        <Loading />
      ) : shares.data.length === 0 ? (
        <Empty title="No shares" />
      ) : (
        <TableWrap label="Shares of the charge">
          <table className="table">
            <caption className="visually-hidden">Shares of the charge</caption>
            <thead>
              <tr>
                <th scope="col">Share</th>
                <th scope="col">Order</th>
                <th scope="col" className="num">Amount</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">Refunded</th>
                <th scope="col">Release</th>
              </tr>
            </thead>
            <tbody>
              {shares.data.map((share) => (
                <tr key={share.id}>
                  <td>
                    <Link to={`${base(scope)}/payments/${share.id}`}>{share.id}</Link>
                  </td>
                  <td>{share.order ? <Link to={`${base(scope)}/orders/${share.order}`}>{share.order}</Link> : '—'}</td>
                  <td className="num">{formatMoney(share.amount, share.currency)}</td>
                  <td>
                    <Badge status={share.status} />
                  </td>
                  <td className="num">{formatMoney(share.amount_refunded, share.currency)}</td>
                  <td>
                    <Badge status={share.release?.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}

function Refunds({ id }: { id: string }) {
  return (
    <>
      <h2>Refunds</h2>
      <RefundsTable of={{ payment: id }} caption="Refunds of the payment" />
    </>
  );
}

/** The refunds of a payment or of an order (the order page shows them too). */
export function RefundsTable({ of, caption }: { of: { payment: string } | { order: string }; caption: string }) {
  const key = 'payment' in of ? of.payment : of.order;
  return (
    <PagedTable
      caption={caption}
      deps={[key]}
      load={(cursor, limit) => call(api.GET('/v1/refunds', { params: { query: { ...of, limit, starting_after: cursor } } }))}
      empty={<Empty title="No refunds" />}
      columns={[
        { header: 'Refund', cell: (r) => <code>{r.id}</code> },
        { header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency), className: 'num' },
        { header: 'Status', cell: (r) => <Badge status={r.status} /> },
        { header: 'Created', cell: (r) => formatDate(r.created_at) },
      ]}
    />
  );
}
