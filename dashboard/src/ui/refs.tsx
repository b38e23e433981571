// How a page names another object: its name first (what people look for), its id beside it. Two
// parties with one name are told apart by the email (or external id) shown with the name. The
// object comes from the API's `expand[]` (docs/expand.md): one request per page, never one per row.
import { Link } from '../router';

interface Party {
  id: string;
  name?: string | null;
  email?: string | null;
  external_id?: string | null;
  erased_at?: string | null;
}

interface Listing {
  id: string;
  title: string;
}

/** The id of an expandable field (the id itself, or the expanded object's). */
function idOf(field: string | { id: string }): string {
  return typeof field === 'string' ? field : field.id;
}

/** What tells a party from another of the same name: the email, else the external id. */
export function partyDetail(party: Party): string | null {
  return party.email ?? party.external_id ?? null;
}

/** A buyer or seller: the name, linked, with the email (or external id) and the id beside it. */
export function PartyRef({ to, party }: { to: string; party: string | Party | null }) {
  if (party === null) return <span className="muted">—</span>;
  const id = idOf(party);
  if (typeof party === 'string') return <Link to={`${to}/${id}`}>{id}</Link>;
  const detail = partyDetail(party);
  return (
    <span className="ref">
      <Link to={`${to}/${id}`}>{party.name ?? (party.erased_at ? 'Erased' : id)}</Link>
      <span className="ref-detail muted">
        {detail}
        <code>{id}</code>
      </span>
    </span>
  );
}

/** A listing: its title, linked, with its id beside it. */
export function ListingRef({ to, listing }: { to: string; listing: string | Listing | null }) {
  if (listing === null) return <span className="muted">—</span>;
  const id = idOf(listing);
  if (typeof listing === 'string') return <Link to={`${to}/${id}`}>{id}</Link>;
  return (
    <span className="ref">
      <Link to={`${to}/${id}`}>{listing.title}</Link>
      <span className="ref-detail muted">
        <code>{id}</code>
      </span>
    </span>
  );
}
