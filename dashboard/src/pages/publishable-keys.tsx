// Publishable keys are public (they go into storefronts and apps), so the dashboard shows them
// whole with a copy button wherever a developer looks for them: the API keys page and the
// overview. Secret keys are never shown again after the answer that made them.
import { api, call, type Mode } from '../api/client';
import { Link } from '../router';
import { CopyButton, Empty, ErrorNotice, Loading } from '../ui/components';
import { useLoad } from '../ui/hooks';

interface Scope {
  marketplace: string;
  mode: Mode;
}

/** One publishable key, whole, with a copy button (not `data-secret`: nothing here is shown once). */
export function PublishableKey({ value, label, compact }: { value: string; label?: string; compact?: boolean }) {
  return (
    <span className={compact ? 'secret secret-compact' : 'secret'}>
      {label && <span className="secret-label">{label}</span>}
      <code className="secret-value" data-publishable-key>
        {value}
      </code>
      <CopyButton text={value} />
    </span>
  );
}

/** Whether a key still works now: not revoked, and not past the expiry a roll gave it. */
function usable(key: { revoked_at: string | null; expires_at: string | null }): boolean {
  return key.revoked_at === null && (key.expires_at === null || Date.parse(key.expires_at) > Date.now());
}

/** The overview's section: the mode's usable publishable keys (the first hundred: a mode has few). */
export function PublishableKeys({ scope }: { scope: Scope }) {
  const path = { id: scope.marketplace, mode: scope.mode };
  const keys = useLoad(
    () => call(api.GET('/manage/v1/marketplaces/{id}/modes/{mode}/api_keys', { params: { path, query: { type: 'publishable', limit: 100 } } })),
    [scope.marketplace, scope.mode],
  );
  const shown = keys.data?.data.filter((k) => k.key !== null && usable(k)) ?? [];
  return (
    <section aria-labelledby="publishable-keys">
      <h2 id="publishable-keys">Publishable keys</h2>
      <p className="muted">
        Public: put them in your storefront or app. Secret keys stay on your server; make or roll them on the <Link to={`/m/${scope.marketplace}/${scope.mode}/api-keys`}>API keys</Link> page.
      </p>
      {keys.error && <ErrorNotice error={keys.error} />}
      {!keys.data && !keys.error && <Loading />}
      {keys.data && shown.length === 0 && <Empty title="No publishable key in this mode" />}
      {shown.map((k) => (
        <PublishableKey key={k.id} value={k.key!} label={k.name ?? 'Publishable key'} />
      ))}
    </section>
  );
}
