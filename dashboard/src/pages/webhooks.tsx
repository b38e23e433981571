// Webhook endpoints (create, edit, disable/enable, rotate the secret), their deliveries with the
// attempt log, request and response, replay one or every failed delivery; the event log.
import { useState, type FormEvent } from 'react';
import { api, call, type Mode } from '../api/client';
import type { paths } from '../api/schema';
import { Link, navigate } from '../router';
import { canWrite, useSession } from '../session';
import { Badge, ConfirmButton, DefinitionList, Empty, ErrorNotice, Field, formatDate, Json, Loading, Notice, PageHeader, PagedTable, SecretOnce, Select } from '../ui/components';
import { useAction, useLoad } from '../ui/hooks';

interface Scope {
  marketplace: string;
  mode: Mode;
}

const base = (scope: Scope) => `/m/${scope.marketplace}/${scope.mode}`;

function parseEvents(text: string): string[] {
  return text.split(/[\s,]+/).map((t) => t.trim()).filter(Boolean);
}

type Ordering = 'none' | 'per_object';
const ORDERINGS: Array<[string, string]> = [
  ['none', 'None: deliveries run in parallel'],
  ['per_object', 'Per object: one at a time, in order'],
];
const RATE_HINT = 'Attempts per second, 1 to 1000; empty for unlimited. The backlog is paced, never dropped.';

/** The rate field's text as the API's value: empty is unlimited (null); anything else goes as a number, for the API to judge. */
function parseRate(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

/** The delivery controls' fields, shared by the create and edit forms. */
function ControlFields({ rate, setRate, ordering, setOrdering, error }: { rate: string; setRate: (v: string) => void; ordering: Ordering; setOrdering: (v: Ordering) => void; error: Parameters<typeof Field>[0]['error'] }) {
  return (
    <>
      <Field label="Rate limit per second (optional)" name="rate_limit_per_second" type="number" value={rate} onChange={setRate} hint={RATE_HINT} error={error} />
      <Select label="Ordering" name="ordering" value={ordering} onChange={(v) => setOrdering(v as Ordering)} options={ORDERINGS} />
    </>
  );
}

export function WebhooksPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [description, setDescription] = useState('');
  const [rate, setRate] = useState('');
  const [ordering, setOrdering] = useState<Ordering>('none');
  const [secret, setSecret] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const action = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = { url, enabled_events: parseEvents(events), rate_limit_per_second: parseRate(rate), ordering, ...(description ? { description } : {}) };
    const endpoint = await action.run(() => call(api.POST('/v1/webhook_endpoints', { body })));
    if (endpoint) {
      setSecret(endpoint.secret ?? null);
      setUrl('');
      setDescription('');
      setRate('');
      setOrdering('none');
      setTick((t) => t + 1);
    }
  };
  return (
    <>
      <PageHeader title="Webhooks" description="Endpoints receive signed events of this mode." />
      <ErrorNotice error={action.error} />
      {secret && (
        <section className="card card-highlight">
          <Notice kind="warning">Copy the signing secret now: it is shown only here and on rotation.</Notice>
          <SecretOnce label="Signing secret" secret={secret} />
        </section>
      )}
      {canWrite(workspace.role) && (
        <form className="card form" onSubmit={create}>
          <h2>Add an endpoint</h2>
          <Field label="Endpoint URL" name="url" type="url" value={url} onChange={setUrl} required error={action.error} hint="https:// on the public internet." />
          <Field label="Events to send" name="enabled_events" value={events} onChange={setEvents} hint="Event types separated by spaces or commas, or * for all." required error={action.error} />
          <Field label="Description (optional)" name="description" value={description} onChange={setDescription} error={action.error} />
          <ControlFields rate={rate} setRate={setRate} ordering={ordering} setOrdering={setOrdering} error={action.error} />
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={action.busy}>
              Add endpoint
            </button>
          </div>
        </form>
      )}
      <PagedTable
        caption="Webhook endpoints"
        deps={[scope.marketplace, scope.mode, tick]}
        load={(cursor, limit) => call(api.GET('/v1/webhook_endpoints', { params: { query: { limit, starting_after: cursor } } }))}
        empty={<Empty title="No webhook endpoints">Add one to receive events as they happen.</Empty>}
        columns={[
          { header: 'URL', cell: (e) => <Link to={`${base(scope)}/webhooks/${e.id}`}>{e.url}</Link> },
          { header: 'Status', cell: (e) => <Badge status={e.status} /> },
          { header: 'Events', cell: (e) => e.enabled_events.join(', '), className: 'wrap' },
          { header: 'Rate limit', cell: (e) => (e.rate_limit_per_second === null ? 'Unlimited' : `${e.rate_limit_per_second}/s`) },
          { header: 'Last success', cell: (e) => formatDate(e.last_success_at) },
        ]}
      />
    </>
  );
}

export function WebhookEndpointPage({ scope, id }: { scope: Scope; id: string }) {
  const { workspace } = useSession();
  const endpoint = useLoad(() => call(api.GET('/v1/webhook_endpoints/{id}', { params: { path: { id } } })), [id, scope.mode]);
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('');
  const [description, setDescription] = useState('');
  const [rate, setRate] = useState('');
  const [ordering, setOrdering] = useState<Ordering>('none');
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [status, setStatus] = useState('');
  const [test, setTest] = useState<TestAnswer | null>(null);
  const action = useAction();
  const writable = canWrite(workspace.role);
  if (endpoint.error) return <ErrorNotice error={endpoint.error} />;
  if (!endpoint.data) return <Loading />;
  const e = endpoint.data;
  const update = async (body: {
    url?: string;
    enabled_events?: string[];
    description?: string | null;
    status?: 'enabled' | 'disabled';
    rate_limit_per_second?: number | null;
    ordering?: Ordering;
  }) => {
    const ok = await action.run(() => call(api.PATCH('/v1/webhook_endpoints/{id}', { params: { path: { id } }, body })));
    if (ok) {
      setEditing(false);
      setMessage('Endpoint updated.');
      endpoint.reload();
    }
  };
  const rotate = async () => {
    const answer = await action.run(() => call(api.POST('/v1/webhook_endpoints/{id}/rotate_secret', { params: { path: { id } } })));
    if (answer?.secret) setSecret(answer.secret);
  };
  // One request: the server replays every failed delivery of the endpoint.
  const replayFailed = async () => {
    const answer = await action.run(() => call(api.POST('/v1/webhook_endpoints/{id}/replay_failed', { params: { path: { id } } })));
    if (answer) {
      setMessage(`${answer.replayed} failed ${answer.replayed === 1 ? 'delivery' : 'deliveries'} replayed.`);
      setTick((t) => t + 1);
    }
  };
  // One signed webhook_endpoint.test event, sent now; the answer says what the endpoint answered.
  const sendTest = async () => {
    setTest(null);
    const answer = await action.run(() => call(api.POST('/v1/webhook_endpoints/{id}/test', { params: { path: { id } } })));
    if (answer) setTest(answer);
  };
  const remove = async () => {
    const ok = await action.run(() => call(api.DELETE('/v1/webhook_endpoints/{id}', { params: { path: { id } } })));
    if (ok !== undefined) navigate(`${base(scope)}/webhooks`);
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/webhooks`}>Webhooks</Link> / <code>{e.id}</code>
      </p>
      <PageHeader title={e.url} description={e.description ?? undefined}>
        {writable && (
          <>
            <button
              type="button"
              className="button"
              onClick={() => {
                setUrl(e.url);
                setEvents(e.enabled_events.join(', '));
                setDescription(e.description ?? '');
                setRate(e.rate_limit_per_second === null ? '' : String(e.rate_limit_per_second));
                setOrdering(e.ordering);
                setEditing(true);
              }}
            >
              Edit
            </button>
            {e.status === 'enabled' ? (
              <button type="button" className="button" onClick={() => void update({ status: 'disabled' })}>
                Disable
              </button>
            ) : (
              <button type="button" className="button" onClick={() => void update({ status: 'enabled' })}>
                Enable
              </button>
            )}
            <ConfirmButton label="Send test event" title="Send a test event?" body={<p>One signed <code>webhook_endpoint.test</code> event is sent to {e.url} now, whatever the endpoint’s status and events. Nothing is stored.</p>} confirmLabel="Send test event" onConfirm={() => void sendTest()} disabled={action.busy} />
            <ConfirmButton label="Rotate secret" title="Rotate the signing secret?" body={<p>The current secret stops working at once; deliveries from now on are signed with the new one.</p>} confirmLabel="Rotate secret" onConfirm={() => void rotate()} />
            <ConfirmButton label="Replay failed" title="Replay the failed events?" body={<p>Each event with a failed delivery to this endpoint is sent again once, as a new delivery (none for an event that is already pending). Past the endpoint's bound of pending deliveries the rest is refused; replay again once they drain.</p>} confirmLabel="Replay failed deliveries" onConfirm={() => void replayFailed()} />
            <ConfirmButton label="Delete" title="Delete this endpoint?" body={<p>It stops receiving events.</p>} confirmLabel="Delete endpoint" danger onConfirm={() => void remove()} />
          </>
        )}
      </PageHeader>
      {message && <Notice kind="success">{message}</Notice>}
      <ErrorNotice error={action.error} />
      {test && (
        <section className="card" aria-label="Test event">
          <h2>Test event {test.event}</h2>
          <DefinitionList
            items={[
              ['Result', <Badge key="s" status={test.status} />],
              ['Answer', test.response.status === null ? (test.error ?? '—') : `HTTP ${test.response.status}${test.error ? ` (${test.error})` : ''}`],
              ['Took', `${test.duration_ms} ms`],
            ]}
          />
          <h3>Request body</h3>
          <Json value={test.request.body} label="Test request body" />
          <h3>Response body</h3>
          <Json value={test.response.body ?? ''} label="Test response body" />
        </section>
      )}
      {secret && (
        <section className="card card-highlight">
          <Notice kind="warning">Copy the new signing secret now: it is not shown again.</Notice>
          <SecretOnce label="Signing secret" secret={secret} />
        </section>
      )}
      {editing && (
        <form
          className="card form"
          onSubmit={(event) => {
            event.preventDefault();
            void update({ url, enabled_events: parseEvents(events), description: description || null, rate_limit_per_second: parseRate(rate), ordering });
          }}
        >
          <h2>Edit endpoint</h2>
          <Field label="Endpoint URL" name="url" type="url" value={url} onChange={setUrl} required error={action.error} />
          <Field label="Events to send" name="enabled_events" value={events} onChange={setEvents} required error={action.error} />
          <Field label="Description" name="description" value={description} onChange={setDescription} error={action.error} />
          <ControlFields rate={rate} setRate={setRate} ordering={ordering} setOrdering={setOrdering} error={action.error} />
          <div className="actions">
            <button type="button" className="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={action.busy}>
              Save
            </button>
          </div>
        </form>
      )}
      <section className="card">
        <DefinitionList
          items={[
            ['Status', <Badge status={e.status} key="s" />],
            ['Disabled because', e.disabled_reason],
            ['Events', e.enabled_events.join(', ')],
            ['Rate limit', e.rate_limit_per_second === null ? 'Unlimited' : `${e.rate_limit_per_second} per second`],
            ['Ordering', e.ordering === 'per_object' ? 'Per object' : 'None'],
            ['Failing since', formatDate(e.failing_since)],
            ['Last success', formatDate(e.last_success_at)],
            ['Created', formatDate(e.created_at)],
          ]}
        />
      </section>
      <h2>Deliveries</h2>
      <label className="inline-filter">
        <span>Status</span>
        <select value={status} onChange={(ev) => setStatus(ev.target.value)}>
          <option value="">All</option>
          <option value="pending">Pending</option>
          <option value="succeeded">Succeeded</option>
          <option value="failed">Failed</option>
        </select>
      </label>
      <PagedTable
        caption="Deliveries"
        deps={[id, tick, status]}
        load={(cursor, limit) => call(api.GET('/v1/webhook_deliveries', { params: { query: { endpoint: id, limit, starting_after: cursor, ...(status ? { status: status as 'failed' } : {}) } } }))}
        empty={<Empty title="No deliveries yet">Deliveries appear when events of the enabled types happen.</Empty>}
        columns={[
          { header: 'Event', cell: (d) => <Link to={`${base(scope)}/deliveries/${d.id}`}>{d.event_type}</Link> },
          { header: 'Status', cell: (d) => <Badge status={d.status} /> },
          { header: 'Attempts', cell: (d) => d.attempts },
          { header: 'Replay of', cell: (d) => (d.replay_of ? <code>{d.replay_of}</code> : '—') },
          { header: 'Created', cell: (d) => formatDate(d.created_at) },
        ]}
      />
    </>
  );
}

/** A body that is JSON shown as JSON, any other text as it is. */
function readable(body: string | null | undefined): unknown {
  if (body === null || body === undefined) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

export function DeliveryPage({ scope, id }: { scope: Scope; id: string }) {
  const { workspace } = useSession();
  const delivery = useLoad(() => call(api.GET('/v1/webhook_deliveries/{id}', { params: { path: { id } } })), [id]);
  const action = useAction();
  if (delivery.error) return <ErrorNotice error={delivery.error} />;
  if (!delivery.data) return <Loading />;
  const d = delivery.data;
  const replay = async () => {
    const replayed = await action.run(() => call(api.POST('/v1/webhook_deliveries/{id}/replay', { params: { path: { id } } })));
    if (replayed) navigate(`${base(scope)}/deliveries/${replayed.id}`);
  };
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/webhooks`}>Webhooks</Link> / <Link to={`${base(scope)}/webhooks/${d.endpoint}`}>{d.endpoint}</Link> / <code>{d.id}</code>
      </p>
      <PageHeader title={`Delivery of ${d.event_type}`}>
        <button type="button" className="button" onClick={() => delivery.reload()}>
          Refresh
        </button>
        {canWrite(workspace.role) && (
          <button type="button" className="button button-primary" onClick={() => void replay()}>
            Replay
          </button>
        )}
      </PageHeader>
      <ErrorNotice error={action.error} />
      <section className="card">
        <DefinitionList
          items={[
            ['Status', <Badge status={d.status} key="s" />],
            ['Event', <Link key="e" to={`${base(scope)}/events/${d.event}`}>{d.event}</Link>],
            ['Attempts', String(d.attempts)],
            ['Next attempt', formatDate(d.next_attempt_at)],
            ['Replay of', d.replay_of ? <Link key="r" to={`${base(scope)}/deliveries/${d.replay_of}`}>{d.replay_of}</Link> : '—'],
            ['Error', d.error ?? '—'],
            ['Created', formatDate(d.created_at)],
            ['Completed', formatDate(d.completed_at)],
          ]}
        />
      </section>
      <h2>Attempt log</h2>
      {d.attempt_log.length === 0 ? (
        <Empty title="Not attempted yet" />
      ) : (
        <table className="table">
          <caption className="visually-hidden">Attempts</caption>
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">HTTP status</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {d.attempt_log.map((attempt, index) => (
              <tr key={index} className="attempt">
                <td>{formatDate(attempt.at)}</td>
                <td>{attempt.status ?? '—'}</td>
                <td>{attempt.duration_ms} ms</td>
                <td>{attempt.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="grid-2">
        <section>
          <h2>Request</h2>
          <Json value={{ headers: d.request.headers, body: readable(d.request.body) }} label="Request" />
        </section>
        <section>
          <h2>Response</h2>
          <Json value={d.response ? { status: d.response.status, body: readable(d.response.body) } : 'No response yet.'} label="Response" />
        </section>
      </div>
    </>
  );
}

export function EventsPage({ scope }: { scope: Scope }) {
  const [type, setType] = useState('');
  const [applied, setApplied] = useState('');
  return (
    <>
      <PageHeader title="Events" description="Every change in this mode, newest first." />
      <form
        className="form-inline filter"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(type.trim());
        }}
      >
        <Field label="Event type" name="type" value={type} onChange={setType} placeholder="order.created" />
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      <PagedTable
        caption="Events"
        deps={[scope.marketplace, scope.mode, applied]}
        load={(cursor, limit) => call(api.GET('/v1/events', { params: { query: { limit, starting_after: cursor, ...(applied ? { type: applied } : {}) } } }))}
        empty={<Empty title="No events" />}
        columns={[
          { header: 'Type', cell: (e) => <Link to={`${base(scope)}/events/${e.id}`}>{e.type}</Link> },
          { header: 'Object', cell: (e) => <code>{String((e.data.object as { id?: string }).id ?? '')}</code> },
          { header: 'ID', cell: (e) => <code>{e.id}</code> },
          { header: 'Created', cell: (e) => formatDate(e.created) },
        ]}
      />
    </>
  );
}

export function EventPage({ scope, id }: { scope: Scope; id: string }) {
  const event = useLoad(() => call(api.GET('/v1/events/{id}', { params: { path: { id } } })), [id]);
  if (event.error) return <ErrorNotice error={event.error} />;
  if (!event.data) return <Loading />;
  return (
    <>
      <p className="breadcrumb">
        <Link to={`${base(scope)}/events`}>Events</Link> / <code>{id}</code>
      </p>
      <PageHeader title={event.data.type} description={formatDate(event.data.created)} />
      <Json value={event.data} label="Event JSON" />
    </>
  );
}

type TestAnswer = paths['/v1/webhook_endpoints/{id}/test']['post']['responses'][200]['content']['application/json'];
