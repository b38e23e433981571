// Per-mode configuration: settings (contract section 3), processor connection, API keys.
import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type Mode } from '../api/client';
import { canWrite, useSession } from '../session';
import { Badge, Checkbox, ConfirmButton, DefinitionList, Empty, ErrorNotice, Field, formatDate, Loading, Notice, PageHeader, PagedTable, SecretOnce, Select } from '../ui/components';
import { useAction, useLoad } from '../ui/hooks';
import { PublishableKey } from './publishable-keys';

interface Scope {
  marketplace: string;
  mode: Mode;
}

const WINDOWS: Array<[string, string, string]> = [
  ['payment_window_seconds', 'Payment window (seconds)', 'How long an order awaits payment before it expires. Default 1800.'],
  ['claim_window_seconds', 'Claim window (seconds)', 'How long the seller has to claim a committed order. Default 7 days.'],
  ['confirm_window_seconds', 'Confirm window (seconds)', 'How long the buyer has to confirm a claimed order. Default 3 days.'],
  ['dispute_window_seconds', 'Dispute window (seconds)', 'How long after completion the buyer may dispute. Default 14 days.'],
  ['review_window_seconds', 'Review window (seconds)', 'How long after completion both parties may review. Default 14 days.'],
  ['dispute_decision_seconds', 'Dispute decision (seconds)', 'When an open dispute becomes overdue. Default 7 days.'],
  ['release_delay_seconds', 'Release delay (seconds)', 'Delay between completion and release of the seller share. Default 0.'],
  ['rate_limit_per_second', 'Rate limit (requests per second)', 'Per API key. Default 100 live, 25 test.'],
];

type Form = Record<string, string> & { payments_enabled: string; seller_verification_required: string };

function toForm(settings: Record<string, unknown>): Form {
  const fee = (settings.platform_fee ?? { percent_bps: 0, fixed_amount: 0 }) as { percent_bps: number; fixed_amount: number };
  const form: Form = {
    payments_enabled: String(Boolean(settings.payments_enabled)),
    seller_verification_required: String(Boolean(settings.seller_verification_required)),
    'platform_fee.percent_bps': String(fee.percent_bps),
    'platform_fee.fixed_amount': String(fee.fixed_amount),
    prohibited_words: ((settings.prohibited_words as string[] | undefined) ?? []).join('\n'),
    checkout_success_url: (settings.checkout_success_url as string | null) ?? '',
    checkout_cancel_url: (settings.checkout_cancel_url as string | null) ?? '',
  };
  for (const [key] of WINDOWS) form[key] = String(settings[key] ?? '');
  return form;
}

/** Numbers that are not numbers go to the API as they are, so its validation names the field. */
function number(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function SettingsPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const path = { id: scope.marketplace, mode: scope.mode };
  const loaded = useLoad(() => call(api.GET('/manage/v1/marketplaces/{id}/modes/{mode}/settings', { params: { path } })), [scope.marketplace, scope.mode]);
  const [form, setForm] = useState<Form | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (loaded.data) setForm(toForm(loaded.data as unknown as Record<string, unknown>));
  }, [loaded.data]);
  if (loaded.error) return <ErrorNotice error={loaded.error} />;
  if (!form) return <Loading />;
  const set = (key: string) => (value: string) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {
      payments_enabled: form.payments_enabled === 'true',
      seller_verification_required: form.seller_verification_required === 'true',
      platform_fee: { percent_bps: number(form['platform_fee.percent_bps'] ?? ''), fixed_amount: number(form['platform_fee.fixed_amount'] ?? '') },
      prohibited_words: (form.prohibited_words ?? '').split(/[\n,]/).map((w) => w.trim()).filter(Boolean),
      checkout_success_url: form.checkout_success_url?.trim() || null,
      checkout_cancel_url: form.checkout_cancel_url?.trim() || null,
    };
    for (const [key] of WINDOWS) body[key] = number(form[key] ?? '');
    const answer = await action.run(() => call(api.PATCH('/manage/v1/marketplaces/{id}/modes/{mode}/settings', { params: { path }, body: body as never })));
    if (answer) {
      setForm(toForm(answer as unknown as Record<string, unknown>));
      setSaved(true);
    }
  };
  const writable = canWrite(workspace.role);
  return (
    <>
      <PageHeader title="Settings" description={`These settings apply to ${scope.mode} mode only.`} />
      <form className="form settings" onSubmit={submit}>
        {saved && <Notice kind="success">Settings saved.</Notice>}
        <ErrorNotice error={action.error} />
        <fieldset className="card" disabled={!writable}>
          <legend>Payments and sellers</legend>
          <Checkbox label="Payments enabled" name="payments_enabled" checked={form.payments_enabled === 'true'} onChange={(v) => set('payments_enabled')(String(v))} />
          <Checkbox label="Seller verification required before publishing" name="seller_verification_required" checked={form.seller_verification_required === 'true'} onChange={(v) => set('seller_verification_required')(String(v))} />
          <Field label="Platform fee (basis points)" name="platform_fee.percent_bps" type="text" value={form['platform_fee.percent_bps'] ?? ''} onChange={set('platform_fee.percent_bps')} hint="The customer's fee, added on top of the price: 250 is 2.5 %." error={action.error} />
          <Field label="Platform fee, fixed (minor units)" name="platform_fee.fixed_amount" type="text" value={form['platform_fee.fixed_amount'] ?? ''} onChange={set('platform_fee.fixed_amount')} error={action.error} />
          <Field label="Checkout success URL" name="checkout_success_url" type="url" value={form.checkout_success_url ?? ''} onChange={set('checkout_success_url')} error={action.error} />
          <Field label="Checkout cancel URL" name="checkout_cancel_url" type="url" value={form.checkout_cancel_url ?? ''} onChange={set('checkout_cancel_url')} error={action.error} />
        </fieldset>
        <fieldset className="card" disabled={!writable}>
          <legend>Listings</legend>
          <Field label="Prohibited words" name="prohibited_words" multiline value={form.prohibited_words ?? ''} onChange={set('prohibited_words')} hint="One per line. Whole words, any case, checked in title, description and attributes when a listing is published or a published listing changes." error={action.error} />
        </fieldset>
        <fieldset className="card" disabled={!writable}>
          <legend>Timers and limits</legend>
          <div className="grid-2">
            {WINDOWS.map(([key, label, hint]) => (
              <Field key={key} label={label} name={key} type="text" value={form[key] ?? ''} onChange={set(key)} hint={hint} error={action.error} />
            ))}
          </div>
        </fieldset>
        {writable && (
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={action.busy}>
              Save settings
            </button>
          </div>
        )}
      </form>
    </>
  );
}

export function ProcessorPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const path = { id: scope.marketplace, mode: scope.mode };
  const [connection, setConnection] = useState<Record<string, unknown> | null | undefined>(undefined);
  const [provider, setProvider] = useState(scope.mode === 'test' ? 'simulated' : 'stripe');
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [connectSecret, setConnectSecret] = useState('');
  const action = useAction();
  const settings = useLoad(() => call(api.GET('/v1/marketplace', {})), [scope.marketplace, scope.mode]);
  // The saved connection (secrets masked); a mode without one answers 404, shown as "not connected".
  useEffect(() => {
    let live = true;
    setConnection(undefined);
    api
      .GET('/manage/v1/marketplaces/{id}/modes/{mode}/processor', { params: { path: { id: scope.marketplace, mode: scope.mode } } })
      .then(({ data, response }) => {
        if (!live) return;
        if (response.ok && data) setConnection(data as unknown as Record<string, unknown>);
        else if (response.status === 404) setConnection(null);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [scope.marketplace, scope.mode]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body =
      provider === 'simulated'
        ? { provider: 'simulated' as const }
        : { provider: 'stripe' as const, secret_key: secretKey, webhook_secret: webhookSecret, ...(connectSecret ? { connect_webhook_secret: connectSecret } : {}) };
    const answer = await action.run(() => call(api.PUT('/manage/v1/marketplaces/{id}/modes/{mode}/processor', { params: { path }, body })));
    if (answer) {
      setConnection(answer as unknown as Record<string, unknown>);
      setSecretKey('');
      setWebhookSecret('');
      setConnectSecret('');
    }
  };
  const disconnect = async () => {
    const ok = await action.run(() => call(api.DELETE('/manage/v1/marketplaces/{id}/modes/{mode}/processor', { params: { path } })));
    if (ok !== undefined) setConnection(null);
  };
  return (
    <>
      <PageHeader title="Payments processor" description={`How ${scope.mode} mode collects and pays out money. Secrets are stored encrypted and never shown again.`} />
      <ErrorNotice error={action.error} />
      {settings.data && <p className="muted">Payments are {(settings.data.settings as { payments_enabled?: boolean }).payments_enabled ? 'enabled' : 'disabled'} in this mode (see Settings).</p>}
      {connection && (
        <section className="card">
          <h2>Connected</h2>
          <DefinitionList
            items={[
              ['Provider', String(connection.provider)],
              ['Secret key', connection.secret_key ? <code>{String(connection.secret_key)}</code> : '—'],
              ['Webhook secret', connection.webhook_secret ? <code>{String(connection.webhook_secret)}</code> : '—'],
              ['Updated', formatDate(connection.updated_at as string)],
            ]}
          />
        </section>
      )}
      {connection === null && <Notice>No processor is connected in {scope.mode} mode.</Notice>}
      {canWrite(workspace.role) && (
        <form className="card form" onSubmit={submit}>
          <h2>Connect a processor</h2>
          <Select
            label="Provider"
            name="provider"
            value={provider}
            onChange={setProvider}
            options={scope.mode === 'test' ? [['simulated', 'Simulated (test mode only)'], ['stripe', 'Stripe']] : [['stripe', 'Stripe']]}
          />
          {provider === 'stripe' && (
            <>
              <Field label="Stripe secret key" name="secret_key" type="password" value={secretKey} onChange={setSecretKey} hint={`sk_${scope.mode}_… or rk_${scope.mode}_…`} autoComplete="off" required error={action.error} />
              <Field label="Webhook signing secret" name="webhook_secret" type="password" value={webhookSecret} onChange={setWebhookSecret} hint="whsec_… of the endpoint for your account's events." autoComplete="off" required error={action.error} />
              <Field label="Connect webhook signing secret (optional)" name="connect_webhook_secret" type="password" value={connectSecret} onChange={setConnectSecret} autoComplete="off" error={action.error} />
            </>
          )}
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={action.busy}>
              Save connection
            </button>
            <ConfirmButton label="Disconnect" title="Disconnect the processor?" body={<p>Payments in {scope.mode} mode stop until a processor is connected again.</p>} confirmLabel="Disconnect" danger onConfirm={() => void disconnect()} />
          </div>
        </form>
      )}
    </>
  );
}

export function ApiKeysPage({ scope }: { scope: Scope }) {
  const { workspace } = useSession();
  const path = { id: scope.marketplace, mode: scope.mode };
  const [type, setType] = useState<'secret' | 'publishable'>('secret');
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ label: string; key: string } | null>(null);
  const [rollExpiry, setRollExpiry] = useState('86400');
  const [tick, setTick] = useState(0);
  const action = useAction();
  const writable = canWrite(workspace.role);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const key = await action.run(() => call(api.POST('/manage/v1/marketplaces/{id}/modes/{mode}/api_keys', { params: { path }, body: { type, ...(name ? { name } : {}) } })));
    if (key?.key) setShown({ label: `New ${type} key`, key: key.key });
    setName('');
    setTick((t) => t + 1);
  };
  const roll = async (id: string) => {
    const key = await action.run(() => call(api.POST('/manage/v1/api_keys/{id}/roll', { params: { path: { id } }, body: { expires_in_seconds: Number(rollExpiry) } })));
    if (key?.key) setShown({ label: 'Rolled key', key: key.key });
    setTick((t) => t + 1);
  };
  const revoke = async (id: string) => {
    await action.run(() => call(api.DELETE('/manage/v1/api_keys/{id}', { params: { path: { id } } })));
    setTick((t) => t + 1);
  };
  return (
    <>
      <PageHeader title="API keys" description={`Keys of ${scope.mode} mode. Secret keys are shown once, when created or rolled; publishable keys are public and always shown whole.`} />
      <ErrorNotice error={action.error} />
      {shown && (
        <section className="card card-highlight" aria-live="polite">
          <Notice kind="warning">Copy this key now: it is not shown again.</Notice>
          <SecretOnce label={shown.label} secret={shown.key} />
          <button type="button" className="button button-small" onClick={() => setShown(null)}>
            Done
          </button>
        </section>
      )}
      {writable && (
        <form className="card form form-inline" onSubmit={create}>
          <h2>Create a key</h2>
          <Select label="Type" name="type" value={type} onChange={(v) => setType(v as 'secret')} options={[['secret', 'Secret'], ['publishable', 'Publishable']]} />
          <Field label="Name (optional)" name="name" value={name} onChange={setName} error={action.error} />
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Create key
          </button>
        </form>
      )}
      {writable && (
        <div className="form-inline card">
          <Select
            label="When rolling, the old key keeps working for"
            name="expires_in_seconds"
            value={rollExpiry}
            onChange={setRollExpiry}
            options={[['0', 'No time: it stops now'], ['3600', '1 hour'], ['86400', '24 hours'], ['259200', '3 days'], ['604800', '7 days']]}
          />
        </div>
      )}
      <PagedTable
        caption="API keys"
        deps={[scope.marketplace, scope.mode, tick]}
        load={(cursor, limit) => call(api.GET('/manage/v1/marketplaces/{id}/modes/{mode}/api_keys', { params: { path, query: { limit, starting_after: cursor } } }))}
        empty={<Empty title="No keys in this mode" />}
        columns={[
          { header: 'Name', cell: (k) => k.name ?? <span className="muted">Unnamed</span> },
          { header: 'Type', cell: (k) => k.type },
          // Publishable keys are public: whole, with a copy button; secret keys only masked.
          { header: 'Key', cell: (k) => (k.type === 'publishable' && k.key ? <PublishableKey value={k.key} compact /> : <code>{k.masked}</code>) },
          { header: 'Status', cell: (k) => <Badge status={k.revoked_at ? 'revoked' : k.expires_at ? 'expiring' : 'active'} /> },
          { header: 'Expires', cell: (k) => formatDate(k.expires_at) },
          { header: 'Created', cell: (k) => formatDate(k.created_at) },
          {
            header: 'Actions',
            cell: (k) =>
              writable && !k.revoked_at ? (
                <div className="row-actions">
                  <ConfirmButton label="Roll" title="Roll this key?" body={<p>A new key replaces {k.masked}; the old one keeps working for the time chosen above.</p>} confirmLabel="Roll key" onConfirm={() => void roll(k.id)} />
                  <ConfirmButton label="Revoke" title="Revoke this key?" body={<p>{k.masked} stops working at once. This cannot be undone.</p>} confirmLabel="Revoke key" danger onConfirm={() => void revoke(k.id)} />
                </div>
              ) : null,
          },
        ]}
      />
    </>
  );
}
