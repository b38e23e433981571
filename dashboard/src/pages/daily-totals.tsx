// The overview's charts: the mode's last 30 days from GET /v1/daily_totals (one request, one
// statement over the ledger): orders paid, gross volume, platform fees and refunds per UTC day.
import { api, call, type Mode } from '../api/client';
import { DailyBars } from '../ui/charts';
import { ErrorNotice, formatMoney, Loading, Notice } from '../ui/components';
import { useLoad } from '../ui/hooks';

export function DailyTotalsCharts({ scope, paymentsEnabled }: { scope: { marketplace: string; mode: Mode }; paymentsEnabled: boolean }) {
  const totals = useLoad(() => call(api.GET('/v1/daily_totals', { params: { query: { days: 30 } } })), [scope.marketplace, scope.mode]);
  if (totals.error) return <ErrorNotice error={totals.error} />;
  if (!totals.data) return <Loading />;
  const { data, currency } = totals.data;
  const money = (value: number) => formatMoney(value, currency);
  const count = (value: number) => value.toLocaleString('en');
  return (
    <section aria-labelledby="last-30-days">
      <h2 id="last-30-days">Last 30 days</h2>
      {!paymentsEnabled && <Notice>Payments are off in this mode: no money moves through the service, so these figures stay at zero.</Notice>}
      <div className="charts">
        <DailyBars title="Orders paid" days={data.map((d) => ({ date: d.date, value: d.orders }))} format={count} />
        <DailyBars title="Gross volume" days={data.map((d) => ({ date: d.date, value: d.gross_volume }))} format={money} />
        <DailyBars title="Platform fees" days={data.map((d) => ({ date: d.date, value: d.fees }))} format={money} />
        <DailyBars title="Refunds" days={data.map((d) => ({ date: d.date, value: d.refunds }))} format={money} />
      </div>
    </section>
  );
}
