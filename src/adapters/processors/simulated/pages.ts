// The look and the headers of the simulated processor's hosted pages (onboarding, checkout):
// plain HTML with no script, marked as simulated, never cached and never sent as a referrer (the
// id in the path is the page's only credential, as with a processor's hosted link).
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';

/** A page's path: the payment's or link's id and the random token beside it. */
export const PageParams = Type.Object({ id: Type.String({ maxLength: 100 }), token: Type.String({ maxLength: 100 }) });

/** The id alone (a page of an earlier version, or a guess): answered as not found. */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A page of the simulated processor; `body` is HTML the caller escaped. */
export function simulatedPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
.tag{display:inline-block;background:#fff3cd;border-radius:4px;padding:2px 8px;font-size:.8rem}
form{display:inline-block;margin-right:.5rem}
button{font-size:1rem;padding:.6rem 1.2rem;border:0;border-radius:6px;background:#3056d3;color:#fff;cursor:pointer}
button.secondary{background:#6b7280}</style>
</head><body><span class="tag">Simulated processor · test mode</span>${body}</body></html>`;
}

/** No caching, no referrer, no script, forms only to this service. */
export function simulatedPageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
}
