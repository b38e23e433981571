// What the access log writes of a request: Fastify's usual fields, with the secret part of every
// capability URL replaced by "[redacted]" (issue 33, item 6). A capability URL acts or reads
// without an API key because it carries a secret: the signed token of a media link
// (GET /media/{token}), an upload grant (PUT /uploads/{token}) and a report link
// (GET /report_files/{token}), and the random token of the simulated processor's pages
// (/simulated/checkout/{id}/{token}, /simulated/onboarding/{id}/{token}). Logs are kept longer and
// read by more people than the links live, so they keep the route and the id, never the secret.
// Query parameters that name a secret (token, signature, X-Amz-Signature, …) are redacted too,
// whatever the path. The dashboard's emailed links carry their token after `#`, which no request
// holds.
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Each pattern's first group is kept; what follows it, up to the next `/`, `?` or `#`, is the secret. */
const SECRET_PATH_SEGMENTS: readonly RegExp[] = [
  /^(\/+media\/+)[^/?#]+/i,
  /^(\/+uploads\/+)[^/?#]+/i,
  /^(\/+report_files\/+)[^/?#]+/i,
  /^(\/+simulated\/+(?:checkout|onboarding)\/+[^/?#]+\/+)[^/?#]+/i,
];

const SECRET_QUERY_NAME = /token|signature|secret|sig$|credential|key/i;

/** The URL (path and query, as a request line holds it) with every secret replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const pattern of SECRET_PATH_SEGMENTS) path = path.replace(pattern, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A name that does not decode is matched as written.
      }
      return eq !== -1 && SECRET_QUERY_NAME.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** pino's `req` serializer for the app: Fastify's default fields, the URL redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
