// The frame of every signed-in page: the left navigation, the top bar with the workspace and
// marketplace pickers and the Test/Live switch (always visible inside a marketplace).
import { useId, useState, type ReactNode } from 'react';
import { api, call, type Mode } from './api/client';
import { Link, navigate } from './router';
import { signOut, useSession } from './session';
import { ErrorNotice } from './ui/components';
import { useAction, useLoad } from './ui/hooks';

export interface MarketplaceScope {
  marketplace: string;
  mode: Mode;
  section: string;
}

const SECTIONS: Array<[string, string, 'test' | undefined]> = [
  ['', 'Overview', undefined],
  ['orders', 'Orders', undefined],
  ['checkouts', 'Checkouts', undefined],
  ['listings', 'Listings', undefined],
  ['sellers', 'Sellers', undefined],
  ['buyers', 'Buyers', undefined],
  ['flags', 'Flags', undefined],
  ['moderation', 'Moderation log', undefined],
  ['reports', 'Reports', undefined],
  ['events', 'Events', undefined],
  ['webhooks', 'Webhooks', undefined],
  ['api-keys', 'API keys', undefined],
  ['settings', 'Settings', undefined],
  ['processor', 'Payments processor', undefined],
  ['clock', 'Test clock', 'test'],
];

export function Shell({ scope, children }: { scope: MarketplaceScope | null; children: ReactNode }) {
  const { session, workspace, setWorkspace } = useSession();
  const ids = useId();
  const marketplaces = useLoad(() => call(api.GET('/manage/v1/marketplaces', { params: { query: { workspace: workspace.id, limit: 100 } } })), [workspace.id, scope?.marketplace]);
  const base = scope ? `/m/${scope.marketplace}/${scope.mode}` : '';
  const switchMode = (mode: Mode) => {
    if (!scope || mode === scope.mode) return;
    const first = scope.section.split('/')[0] ?? '';
    // A page with no list of its own in the navigation (a payment, a delivery) opens the overview.
    const listed = SECTIONS.some(([path, , only]) => path === first && (!only || only === mode));
    const section = listed ? first : '';
    navigate(`/m/${scope.marketplace}/${mode}${section ? `/${section}` : ''}`);
  };
  return (
    <div className={`layout ${scope?.mode === 'test' ? 'layout-test' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <p className="brand">Marketplace</p>
        {scope && (
          <ul className="nav-list">
            {SECTIONS.filter(([, , only]) => !only || only === scope.mode).map(([path, label]) => {
              const current = (scope.section.split('/')[0] ?? '') === path;
              return (
                <li key={path}>
                  <Link to={`${base}${path ? `/${path}` : ''}`} className={`nav-link ${current ? 'nav-link-current' : ''}`} aria-current={current ? 'page' : undefined}>
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        <p className="nav-heading">Workspace</p>
        <ul className="nav-list">
          <li>
            <Link to="/" className="nav-link">
              Marketplaces
            </Link>
          </li>
          <li>
            <Link to="/members" className="nav-link">
              Members
            </Link>
          </li>
          <li>
            <Link to="/emails" className="nav-link">
              Email outbox
            </Link>
          </li>
          <li>
            <Link to="/workspaces/new" className="nav-link">
              New workspace
            </Link>
          </li>
        </ul>
      </nav>
      <div className="main-column">
        <header className="topbar">
          <div className="pickers">
            <div className="picker">
              <label className="picker-label" htmlFor={`${ids}-workspace`}>
                Workspace
              </label>
              <select id={`${ids}-workspace`} value={workspace.id} onChange={(e) => { setWorkspace(e.target.value); navigate('/'); }}>
                {session.workspaces.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="picker">
              <label className="picker-label" htmlFor={`${ids}-marketplace`}>
                Marketplace
              </label>
              <select
                id={`${ids}-marketplace`}
                value={scope?.marketplace ?? ''}
                onChange={(e) => e.target.value && navigate(`/m/${e.target.value}/${scope?.mode ?? 'test'}`)}
              >
                <option value="">Choose…</option>
                {marketplaces.data?.data.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {scope && (
            <div className="mode-switch" role="group" aria-label="Mode">
              <button type="button" className={`mode mode-test ${scope.mode === 'test' ? 'mode-on' : ''}`} aria-pressed={scope.mode === 'test'} onClick={() => switchMode('test')}>
                Test mode
              </button>
              <button type="button" className={`mode mode-live ${scope.mode === 'live' ? 'mode-on' : ''}`} aria-pressed={scope.mode === 'live'} onClick={() => switchMode('live')}>
                Live mode
              </button>
            </div>
          )}
          <div className="user">
            <span className="muted">
              {workspace.role}
            </span>
            <button
              type="button"
              className="button button-small"
              onClick={async () => {
                await signOut();
                window.location.assign('/dashboard/login');
              }}
            >
              Log out
            </button>
          </div>
        </header>
        {session.user.email_verified_at === null && <VerifyBanner email={session.user.email} />}
        {scope?.mode === 'test' && <div className="test-banner">Test mode: test data, simulated payments, nothing real moves.</div>}
        <main id="main" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

/** An account whose address is not proved yet: it uses its own workspace, and is asked to confirm. */
function VerifyBanner({ email }: { email: string }) {
  const [sent, setSent] = useState(false);
  const action = useAction();
  const resend = async () => {
    const ok = await action.run(async () => {
      await call(api.POST('/manage/v1/email_verifications', {}));
      return true;
    });
    if (ok) setSent(true);
  };
  return (
    <div className="notice notice-warning verify-banner" role="status">
      {sent ? (
        <p>A new confirmation link is on its way to {email}.</p>
      ) : (
        <p>
          Confirm your email address: we sent a link to {email}.{' '}
          <button type="button" className="button button-small" onClick={resend} disabled={action.busy}>
            Send the link again
          </button>
        </p>
      )}
      <ErrorNotice error={action.error} />
    </div>
  );
}
