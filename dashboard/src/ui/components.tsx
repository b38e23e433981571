// Shared pieces: fields with labels and the API's errors beside them, badges, tables with cursor
// pagination, empty states, confirmation dialogs, JSON views, copy buttons.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ApiFailure, ListPage } from '../api/client';
import { useLoad } from './hooks';

export function ErrorNotice({ error }: { error: ApiFailure | null | undefined }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      <strong>{error.error.message}</strong>
      <span className="muted"> ({error.error.code}{error.error.request_id ? ` · ${error.error.request_id}` : ''})</span>
    </div>
  );
}

export function Notice({ children, kind = 'info' }: { children: ReactNode; kind?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`notice notice-${kind}`} role="status">
      {children}
    </div>
  );
}

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  error?: ApiFailure | null;
  hint?: string;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  multiline?: boolean;
}

/** A labelled input; the API's error shows here when its `param` names this field. */
export function Field({ label, name, value, onChange, type = 'text', error, hint, required, autoComplete, placeholder, multiline }: FieldProps) {
  const id = useId();
  const mine = error && error.error.param && (error.error.param === name || error.error.param.startsWith(`${name}.`) || error.error.param.startsWith(`${name}[`));
  const describedBy = [hint ? `${id}-hint` : '', mine ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} name={name} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={mine ? true : undefined} aria-describedby={describedBy} required={required} placeholder={placeholder} rows={4} />
      ) : (
        <input id={id} name={name} type={type} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={mine ? true : undefined} aria-describedby={describedBy} required={required} autoComplete={autoComplete} placeholder={placeholder} />
      )}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {mine && (
        <p className="field-error" id={`${id}-error`}>
          {error.error.message}
        </p>
      )}
    </div>
  );
}

export function Select({ label, value, onChange, options, name }: { label: string; name: string; value: string; onChange: (v: string) => void; options: Array<[string, string]> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Checkbox({ label, checked, onChange, name }: { label: string; name: string; checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId();
  return (
    <div className="field field-check">
      <input id={id} name={name} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

const BADGE_KIND: Record<string, string> = {
  active: 'green', enabled: 'green', succeeded: 'green', completed: 'green', published: 'green', sent: 'green', resolved: 'green', paid: 'green', released: 'green', verified: 'green', approved: 'green',
  pending: 'blue', awaiting_payment: 'blue', committed: 'blue', claimed: 'blue', invited: 'blue', queued: 'blue', open: 'blue', draft: 'grey', unverified: 'grey', test: 'orange', live: 'green',
  failed: 'red', disabled: 'red', suspended: 'red', revoked: 'red', cancelled: 'grey', expired: 'grey', removed: 'red', disputed: 'orange', erased: 'grey', rejected: 'red',
};

export function Badge({ status }: { status: string | null | undefined }) {
  if (!status) return <span className="muted">—</span>;
  return <span className={`badge badge-${BADGE_KIND[status] ?? 'grey'}`}>{status.replace(/_/g, ' ')}</span>;
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

export function Loading() {
  return (
    <p className="muted" role="status">
      Loading…
    </p>
  );
}

export function Json({ value, label = 'JSON' }: { value: unknown; label?: string }) {
  return (
    <pre className="json" tabIndex={0} aria-label={label}>
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => setCopied(false));
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once, with a copy button. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="secret">
      <span className="secret-label">{label}</span>
      <code className="secret-value" data-secret>
        {secret}
      </code>
      <CopyButton text={secret} />
    </div>
  );
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

export function formatMoney(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const cur = currency ?? 'USD';
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: cur }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat('en', { style: 'currency', currency: cur }).format(amount / 10 ** digits);
  } catch {
    return `${amount} ${cur}`;
  }
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). */
export function ConfirmButton({ label, title, body, confirmLabel, onConfirm, danger, disabled }: { label: string; title: string; body: ReactNode; confirmLabel: string; onConfirm: () => void; danger?: boolean; disabled?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className={`button ${danger ? 'button-danger' : ''}`} onClick={() => ref.current?.showModal()} disabled={disabled}>
        {label}
      </button>
      <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{body}</div>
        <div className="actions">
          <button type="button" className="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className={`button ${danger ? 'button-danger' : 'button-primary'}`}
            onClick={() => {
              ref.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/**
 * The box a table scrolls in sideways when the window is narrower than its columns. A region that
 * scrolls must be reachable from the keyboard (WCAG 2.1.1; axe's scrollable-region-focusable), so
 * it is a named, focusable region.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A table over one of the API's lists, paged with its cursors: Next passes the page's
 * next_cursor as starting_after; Previous goes back to the cursor the previous page started after.
 */
export function PagedTable<T extends { id: string }>({ load, columns, deps, empty, caption, pageSize = 20, pollWhile }: { load: (cursor: string | undefined, limit: number) => Promise<ListPage<T>>; columns: Array<Column<T>>; deps: unknown[]; empty: ReactNode; caption: string; pageSize?: number; /** Reloads the page every 2 s while this holds for a row shown (a report being built). */ pollWhile?: (row: NoInfer<T>) => boolean }) {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  useEffect(() => setCursors([undefined]), deps);
  const page = useLoad(() => load(cursor, pageSize), [...deps, cursor]);
  const polling = pollWhile !== undefined && !page.loading && (page.data?.data.some(pollWhile) ?? false);
  const { reload } = page;
  useEffect(() => {
    if (!polling) return undefined;
    const timer = window.setTimeout(reload, 2000);
    return () => window.clearTimeout(timer);
  }, [polling, page.data, reload]);
  return (
    <TableWrap label={caption}>
      <ErrorNotice error={page.error} />
      {page.loading && !page.data ? (
        <Loading />
      ) : page.data && page.data.data.length === 0 && cursors.length === 1 ? (
        empty
      ) : page.data ? (
        <>
          <table className="table" aria-busy={page.loading}>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col" className={column.className}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((row) => (
                <tr key={row.id}>
                  {columns.map((column) => (
                    <td key={column.header} className={column.className}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="pager" aria-label={`${caption} pages`}>
            <span className="muted">
              Page {cursors.length} · {page.data.data.length} shown
            </span>
            <button type="button" className="button button-small" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Previous
            </button>
            <button type="button" className="button button-small" disabled={!page.data.has_more || !page.data.next_cursor} onClick={() => setCursors((c) => [...c, page.data?.next_cursor ?? undefined])}>
              Next
            </button>
          </nav>
        </>
      ) : null}
    </TableWrap>
  );
}

export function PageHeader({ title, children, description }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="muted">{description}</p>}
      </div>
      {children && <div className="actions">{children}</div>}
    </header>
  );
}

export function DefinitionList({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="details">
      {items.map(([term, value]) => (
        <div key={term} className="details-row">
          <dt>{term}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
