// Workspace pages: marketplaces (list, create with the test keys shown once), members, the outbox.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Link, navigate } from '../router';
import { canManageMembers, useSession } from '../session';
import { Badge, ConfirmButton, Empty, ErrorNotice, Field, formatDate, Json, Notice, PageHeader, PagedTable, SecretOnce, Select } from '../ui/components';
import { useAction } from '../ui/hooks';

export function MarketplacesPage() {
  const { workspace } = useSession();
  return (
    <>
      <PageHeader title="Marketplaces" description={`In the workspace ${workspace.name}.`}>
        {canManageMembers(workspace.role) && (
          <Link to="/marketplaces/new" className="button button-primary">
            New marketplace
          </Link>
        )}
      </PageHeader>
      <PagedTable
        caption="Marketplaces"
        deps={[workspace.id]}
        load={(cursor, limit) => call(api.GET('/manage/v1/marketplaces', { params: { query: { workspace: workspace.id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No marketplaces yet">Create one to get test and live API keys.</Empty>}
        columns={[
          { header: 'Name', cell: (m) => <Link to={`/m/${m.id}/test`}>{m.name}</Link> },
          { header: 'Currency', cell: (m) => m.currency },
          { header: 'ID', cell: (m) => <code>{m.id}</code> },
          { header: 'Created', cell: (m) => formatDate(m.created_at) },
        ]}
      />
    </>
  );
}

type KeyPair = { secret_key: string; publishable_key: string };
type Created = { marketplace: { id: string; name: string }; api_keys: { test: KeyPair; live: KeyPair } };

export function NewMarketplacePage() {
  const { workspace } = useSession();
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [created, setCreated] = useState<Created | null>(null);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(() => call(api.POST('/manage/v1/marketplaces', { params: { query: { workspace: workspace.id } }, body: { name, currency: currency.toUpperCase() } })));
    if (answer) setCreated(answer as Created);
  };
  if (created) {
    return (
      <>
        <PageHeader title={`${created.marketplace.name} is ready`} />
        <Notice kind="warning">Copy the secret keys now: they are not shown again (new keys can be made on the API keys page of each mode).</Notice>
        <section className="card">
          <h2>Test keys</h2>
          <SecretOnce label="Secret key" secret={created.api_keys.test.secret_key} />
          <SecretOnce label="Publishable key" secret={created.api_keys.test.publishable_key} />
        </section>
        <section className="card">
          <h2>Live keys</h2>
          <SecretOnce label="Secret key" secret={created.api_keys.live.secret_key} />
          <SecretOnce label="Publishable key" secret={created.api_keys.live.publishable_key} />
        </section>
        <button type="button" className="button button-primary" onClick={() => navigate(`/m/${created.marketplace.id}/test`)}>
          Go to the marketplace
        </button>
      </>
    );
  }
  return (
    <>
      <PageHeader title="New marketplace" />
      <form className="card form" onSubmit={submit}>
        <ErrorNotice error={action.error} />
        <Field label="Name" name="name" value={name} onChange={setName} required error={action.error} />
        <Field label="Currency" name="currency" value={currency} onChange={setCurrency} hint="ISO 4217 code, fixed once created (USD, EUR, GBP…)." required error={action.error} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Create marketplace
          </button>
        </div>
      </form>
    </>
  );
}

const ROLES: Array<[string, string]> = [
  ['viewer', 'Viewer: reads only'],
  ['developer', 'Developer'],
  ['admin', 'Admin'],
  ['owner', 'Owner'],
];

export function MembersPage() {
  const { workspace, session } = useSession();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('developer');
  const [tick, setTick] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const action = useAction();
  const manage = canManageMembers(workspace.role);
  const invite = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(() => call(api.POST('/manage/v1/members', { params: { query: { workspace: workspace.id } }, body: { email, role: role as 'viewer' } })));
    if (ok) {
      setMessage(`Invitation sent to ${email}.`);
      setEmail('');
      setTick((t) => t + 1);
    }
  };
  const changeRole = async (id: string, newRole: string) => {
    const ok = await action.run(() => call(api.PATCH('/manage/v1/members/{user_id}', { params: { path: { user_id: id }, query: { workspace: workspace.id } }, body: { role: newRole as 'viewer' } })));
    if (ok) {
      setMessage('Role changed.');
      setTick((t) => t + 1);
    }
  };
  const remove = async (id: string) => {
    const ok = await action.run(() => call(api.DELETE('/manage/v1/members/{user_id}', { params: { path: { user_id: id }, query: { workspace: workspace.id } } })));
    if (ok !== undefined) {
      setMessage('Member removed.');
      setTick((t) => t + 1);
    }
  };
  return (
    <>
      <PageHeader title="Members" description="Owners and admins invite and remove members; viewers only read." />
      {message && <Notice kind="success">{message}</Notice>}
      <ErrorNotice error={action.error} />
      {manage && (
        <form className="card form form-inline" onSubmit={invite}>
          <h2>Invite a member</h2>
          <Field label="Email" name="email" type="email" value={email} onChange={setEmail} required error={action.error} />
          <Select label="Role" name="role" value={role} onChange={setRole} options={ROLES} />
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Send invitation
          </button>
        </form>
      )}
      <PagedTable
        caption="Members"
        deps={[workspace.id, tick]}
        load={(cursor, limit) => call(api.GET('/manage/v1/members', { params: { query: { workspace: workspace.id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No members" />}
        columns={[
          { header: 'Email', cell: (m) => m.email },
          {
            header: 'Role',
            cell: (m) =>
              manage && m.id !== session.user.id ? (
                <label>
                  <span className="visually-hidden">Role of {m.email}</span>
                  <select value={m.role} onChange={(e) => void changeRole(m.id, e.target.value)}>
                    {ROLES.map(([v]) => (
                      <option key={v} value={v}>
                        {v}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                m.role
              ),
          },
          { header: 'Status', cell: (m) => <Badge status={m.status} /> },
          { header: 'Since', cell: (m) => formatDate(m.created_at) },
          {
            header: 'Actions',
            cell: (m) =>
              manage && m.id !== session.user.id ? (
                <ConfirmButton label="Remove" title="Remove this member?" body={<p>{m.email} loses access to the workspace at once.</p>} confirmLabel="Remove member" danger onConfirm={() => void remove(m.id)} />
              ) : null,
          },
        ]}
      />
    </>
  );
}

export function EmailsPage() {
  const { workspace } = useSession();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Email outbox" description="Every email the service sent or queued for this workspace, newest first." />
      <PagedTable
        caption="Emails"
        deps={[workspace.id]}
        load={(cursor, limit) => call(api.GET('/manage/v1/emails', { params: { query: { workspace: workspace.id, limit, starting_after: cursor } } }))}
        empty={<Empty title="No emails yet" />}
        columns={[
          { header: 'To', cell: (e) => e.to.join(', ') },
          {
            header: 'Subject',
            className: 'wrap',
            cell: (e) => (
              <>
                <button type="button" className="link-button" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  {e.subject}
                </button>
                {open === e.id && <Json value={e.text} label={`Text of ${e.subject}`} />}
              </>
            ),
          },
          { header: 'Status', cell: (e) => <Badge status={e.status} /> },
          { header: 'Created', cell: (e) => formatDate(e.created_at) },
        ]}
      />
    </>
  );
}

export function NewWorkspacePage() {
  const { setWorkspace, refresh } = useSession();
  const [name, setName] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() => call(api.POST('/manage/v1/workspaces', { body: { name } })));
    if (created) {
      await refresh();
      setWorkspace(created.id);
      navigate('/');
    }
  };
  return (
    <>
      <PageHeader title="New workspace" description="A workspace has its own members and marketplaces. You are its owner." />
      <form className="card form" onSubmit={submit}>
        <ErrorNotice error={action.error} />
        <Field label="Workspace name" name="name" value={name} onChange={setName} required error={action.error} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={action.busy}>
            Create workspace
          </button>
        </div>
      </form>
    </>
  );
}
