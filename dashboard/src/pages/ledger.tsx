// The ledger in the dashboard (docs/ledger.md): a seller's balance on the seller page, and the
// balance transactions of an order on the order page.
import { api, call } from '../api/client';
import { DefinitionList, Empty, ErrorNotice, formatDate, formatMoney, Loading, PagedTable } from '../ui/components';
import { useLoad } from '../ui/hooks';

/** What the platform holds for the seller, what it sent and what it took back, from the ledger. */
export function SellerBalanceCard({ seller }: { seller: string }) {
  const balance = useLoad(() => call(api.GET('/v1/sellers/{id}/balance', { params: { path: { id: seller } } })), [seller]);
  if (balance.error) return <ErrorNotice error={balance.error} />;
  if (!balance.data) return <Loading />;
  const b = balance.data;
  return (
    <section className="card" aria-label="Balance">
      <DefinitionList
        items={[
          ['Pending (owed, not sent)', formatMoney(b.pending, b.currency)],
          ['Transferred', formatMoney(b.transferred, b.currency)],
          ['Reversed', formatMoney(b.reversed, b.currency)],
          ['Net', formatMoney(b.net, b.currency)],
        ]}
      />
    </section>
  );
}

/** An order's ledger lines, newest first: each entry's lines balance. */
export function OrderLedgerTable({ order }: { order: string }) {
  return (
    <PagedTable
      caption="Ledger"
      deps={[order]}
      pageSize={50}
      load={(cursor, limit) => call(api.GET('/v1/balance_transactions', { params: { query: { order, limit, starting_after: cursor } } }))}
      empty={<Empty title="No ledger lines">Nothing has moved yet: the buyer has not paid.</Empty>}
      columns={[
        { header: 'Type', cell: (l) => l.type },
        { header: 'Account', cell: (l) => <code>{l.account}</code>, className: 'wrap' },
        { header: 'Amount', cell: (l) => formatMoney(l.amount, l.currency), className: 'num' },
        { header: 'Source', cell: (l) => <code>{l.source}</code>, className: 'wrap' },
        { header: 'At', cell: (l) => formatDate(l.created) },
      ]}
    />
  );
}
