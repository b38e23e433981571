// Reports (docs/ledger.md, "Reports"): ask for a CSV report of an interval (a seller's statement,
// platform fees, balance summary, reconciliation with the processor), follow its status, and
// download it through its signed link once it succeeded.
import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type Mode } from '../api/client';
import { Link } from '../router';
import { canWrite, useSession } from '../session';
import { Badge, Empty, ErrorNotice, Field, formatDate, Notice, PageHeader, PagedTable, Select } from '../ui/components';
import { useAction } from '../ui/hooks';

interface Scope {
  marketplace: string;
  mode: Mode;
}

type ReportType = 'seller_statement' | 'platform_fees' | 'balance_summary' | 'reconciliation';

const TYPES: Array<[ReportType, string]> = [
  ['balance_summary', 'Balance summary'],
  ['platform_fees', 'Platform fees'],
  ['seller_statement', 'Seller statement'],
  ['reconciliation', 'Reconciliation with the processor'],
];

const base = (scope: Scope) => `/m/${scope.marketplace}/${scope.mode}`;

/** A YYYY-MM-DD date as unix seconds at 00:00 UTC. */
const daySeconds = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const formatDay = (iso: string) => iso.slice(0, 10);

const loadReports = (cursor: string | undefined, limit: number) => call(api.GET('/v1/reports', { params: { query: { limit, starting_after: cursor } } }));

export function ReportsPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const [type, setType] = useState<ReportType>('balance_summary');
  // The last 30 days, today included: `to` is excluded, so it is tomorrow (on the mode's clock,
  // which the test clock may have moved ahead).
  const [from, setFrom] = useState(() => isoDay(Date.now() - 29 * 86_400_000));
  const [to, setTo] = useState(() => isoDay(Date.now() + 86_400_000));
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (scope.mode !== 'test') return;
    let live = true;
    void call(api.GET('/v1/test_helpers/clock', {})).then(
      (clock) => {
        const now = Date.parse(clock.now);
        if (!live || edited || Number.isNaN(now)) return;
        setFrom(isoDay(now - 29 * 86_400_000));
        setTo(isoDay(now + 86_400_000));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [scope.marketplace, scope.mode]);
  const [seller, setSeller] = useState('');
  const [tick, setTick] = useState(0);
  const [asked, setAsked] = useState<string | null>(null);
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = { type, interval_start: daySeconds(from), interval_end: daySeconds(to), ...(type === 'seller_statement' ? { seller: seller.trim() } : {}) };
    const report = await action.run(() => call(api.POST('/v1/reports', { body })));
    if (report) {
      setAsked(report.id);
      setTick((t) => t + 1);
    }
  };
  return (
    <>
      <PageHeader title="Reports" description="CSV files built from the ledger in the background: amounts in minor units, one header row.">
        <button type="button" className="button" onClick={() => setTick((t) => t + 1)}>
          Refresh
        </button>
      </PageHeader>
      <ErrorNotice error={action.error} />
      {asked && <Notice kind="success">Report {asked} is being built; the list below follows it until it is done.</Notice>}
      {canWrite(workspace.role) && (
        <form className="card form" onSubmit={create}>
          <h2>New report</h2>
          <Select label="Type" name="type" value={type} onChange={(v) => setType(v as ReportType)} options={TYPES} />
          <Field label="From (UTC, included)" name="interval_start" type="date" value={from} onChange={(v) => { setEdited(true); setFrom(v); }} required error={action.error} />
          <Field label="To (UTC, excluded)" name="interval_end" type="date" value={to} onChange={(v) => { setEdited(true); setTo(v); }} required error={action.error} hint="Excluded: the default, tomorrow, takes in today. At most 366 days after the start." />
          {type === 'seller_statement' && <Field label="Seller ID" name="seller" value={seller} onChange={setSeller} placeholder="sel_…" required error={action.error} />}
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={action.busy}>
              Create report
            </button>
          </div>
        </form>
      )}
      <PagedTable
        caption="Reports"
        pageSize={25}
        deps={[scope.marketplace, scope.mode, tick]}
        load={loadReports}
        pollWhile={(r) => r.status === 'pending'}
        empty={<Empty title="No reports">Create one above, or through the API (POST /v1/reports).</Empty>}
        columns={[
          { header: 'Report', cell: (r) => <code>{r.id}</code>, className: 'id-cell' },
          { header: 'Type', cell: (r) => TYPES.find(([value]) => value === r.type)?.[1] ?? r.type },
          { header: 'Interval', cell: (r) => `${formatDay(r.interval_start)} – ${formatDay(r.interval_end)}` },
          { header: 'Seller', cell: (r) => (r.seller ? <Link to={`${base(scope)}/sellers/${r.seller}`}>{r.seller}</Link> : '—') },
          { header: 'Status', cell: (r) => <Badge status={r.status} /> },
          {
            header: 'File',
            cell: (r) =>
              r.file ? (
                <a href={r.file.url} download>
                  Download CSV ({r.file.rows} rows)
                </a>
              ) : (
                (r.failure ?? '—')
              ),
            className: 'file',
          },
          { header: 'Created', cell: (r) => formatDate(r.created_at) },
        ]}
      />
    </>
  );
}
