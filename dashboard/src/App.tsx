// Routes: pages outside a session (log in, sign up, reset, invitation) and, inside one, the
// workspace pages and the per-marketplace, per-mode pages under /m/{marketplace}/{mode}/….
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { context, type Mode } from './api/client';
import { AcceptInvitationPage, ForgotPasswordPage, LoginPage, ResetPasswordPage, SignupPage, VerifyEmailPage } from './pages/auth';
import { BuyerPage, BuyersPage, ClockPage, FlagsPage, ListingPage, ListingsPage, ModerationPage, OrderPage, OrdersPage, OverviewPage, SellerPage, SellersPage } from './pages/commerce';
import { CheckoutPage, CheckoutsPage } from './pages/checkouts';
import { ReportsPage } from './pages/reports';
import { ApiKeysPage, ProcessorPage, SettingsPage } from './pages/config';
import { PaymentPage } from './pages/payments';
import { DeliveryPage, EventPage, EventsPage, WebhookEndpointPage, WebhooksPage } from './pages/webhooks';
import { EmailsPage, MarketplacesPage, MembersPage, NewMarketplacePage, NewWorkspacePage } from './pages/workspace';
import { match, navigate, useLocation } from './router';
import { loadSession, SessionContext, type Session, type SessionState } from './session';
import { Shell, type MarketplaceScope } from './shell';
import { Empty, Loading } from './ui/components';

const PUBLIC = ['/login', '/signup', '/forgot-password', '/reset-password', '/accept-invitation', '/verify-email'];
const WORKSPACE_KEY = 'dashboard.workspace';

export function App() {
  const { path } = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [workspaceId, setWorkspaceId] = useState<string | null>(() => window.localStorage.getItem(WORKSPACE_KEY));
  const refresh = useCallback(async () => {
    try {
      setSession(await loadSession());
    } catch {
      setSession(null);
    }
  }, []);
  useEffect(() => {
    context.onUnauthorized = () => setSession(null);
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (session === null && !PUBLIC.includes(path)) navigate('/login', { replace: true });
  }, [session, path]);

  const state = useMemo<SessionState | null>(() => {
    if (!session || session.workspaces.length === 0) return null;
    const workspace = session.workspaces.find((w) => w.id === workspaceId) ?? session.workspaces[0]!;
    return {
      session,
      workspace,
      setWorkspace: (id: string) => {
        window.localStorage.setItem(WORKSPACE_KEY, id);
        setWorkspaceId(id);
      },
      refresh,
    };
  }, [session, workspaceId, refresh]);

  const publicPage = publicRoute(path, refresh, session);
  if (publicPage) return publicPage;
  if (session === undefined) return <Loading />;
  if (session === null) return <Loading />;
  if (!state) return <Empty title="You are not a member of any workspace." />;

  const scoped = match('/m/:marketplace/:mode/*', path) ?? match('/m/:marketplace/:mode', path);
  let scope: MarketplaceScope | null = null;
  if (scoped && (scoped.mode === 'test' || scoped.mode === 'live')) {
    scope = { marketplace: scoped.marketplace!, mode: scoped.mode as Mode, section: scoped['*'] ?? '' };
  }
  context.marketplace = scope?.marketplace ?? null;
  context.mode = scope?.mode ?? 'test';
  return (
    <SessionContext.Provider value={state}>
      <Shell scope={scope}>{scope ? <ScopedPage key={`${scope.marketplace}/${scope.mode}/${scope.section}`} scope={scope} /> : <WorkspacePage path={path} />}</Shell>
    </SessionContext.Provider>
  );
}

function publicRoute(path: string, refresh: () => Promise<void>, session: Session | null | undefined): ReactNode {
  switch (path) {
    case '/login':
      return <LoginPage onSignedIn={refresh} />;
    case '/signup':
      return <SignupPage onSignedIn={refresh} />;
    case '/forgot-password':
      return <ForgotPasswordPage />;
    case '/reset-password':
      return <ResetPasswordPage />;
    case '/accept-invitation':
      // Wait for the session: signed in, the invitation is accepted by that account.
      if (session === undefined) return <Loading />;
      return <AcceptInvitationPage key={session?.user.id ?? 'none'} signedInAs={session?.user.email ?? null} onSignedIn={refresh} />;
    case '/verify-email':
      return <VerifyEmailPage onVerified={refresh} />;
    default:
      return null;
  }
}

function WorkspacePage({ path }: { path: string }) {
  switch (path) {
    case '/':
      return <MarketplacesPage />;
    case '/marketplaces/new':
      return <NewMarketplacePage />;
    case '/members':
      return <MembersPage />;
    case '/emails':
      return <EmailsPage />;
    case '/workspaces/new':
      return <NewWorkspacePage />;
    default:
      return <Empty title="Page not found" />;
  }
}

function ScopedPage({ scope }: { scope: MarketplaceScope }) {
  const [section = '', id] = scope.section.split('/');
  const s = { marketplace: scope.marketplace, mode: scope.mode };
  if (id) {
    switch (section) {
      case 'webhooks':
        return <WebhookEndpointPage scope={s} id={id} />;
      case 'deliveries':
        return <DeliveryPage scope={s} id={id} />;
      case 'events':
        return <EventPage scope={s} id={id} />;
      case 'orders':
        return <OrderPage scope={s} id={id} />;
      case 'checkouts':
        return <CheckoutPage scope={s} id={id} />;
      case 'payments':
        return <PaymentPage scope={s} id={id} />;
      case 'listings':
        return <ListingPage scope={s} id={id} />;
      case 'sellers':
        return <SellerPage scope={s} id={id} />;
      case 'buyers':
        return <BuyerPage scope={s} id={id} />;
    }
    return <Empty title="Page not found" />;
  }
  switch (section) {
    case '':
      return <OverviewPage scope={s} />;
    case 'settings':
      return <SettingsPage scope={s} />;
    case 'processor':
      return <ProcessorPage scope={s} />;
    case 'api-keys':
      return <ApiKeysPage scope={s} />;
    case 'webhooks':
      return <WebhooksPage scope={s} />;
    case 'events':
      return <EventsPage scope={s} />;
    case 'orders':
      return <OrdersPage scope={s} />;
    case 'checkouts':
      return <CheckoutsPage scope={s} />;
    case 'reports':
      return <ReportsPage scope={s} />;
    case 'listings':
      return <ListingsPage scope={s} />;
    case 'sellers':
      return <SellersPage scope={s} />;
    case 'buyers':
      return <BuyersPage scope={s} />;
    case 'flags':
      return <FlagsPage scope={s} />;
    case 'moderation':
      return <ModerationPage scope={s} />;
    case 'clock':
      return <ClockPage scope={s} />;
    default:
      return <Empty title="Page not found" />;
  }
}
