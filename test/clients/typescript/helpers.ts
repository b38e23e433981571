// The TypeScript client against the real service: the test app listening on a loopback port, and
// a fetch that records every attempt the client makes (what was sent, what came back).
import { createClient, type ClientOptions, type MarketplaceClient } from '../../../clients/typescript/src/index.js';
import type { TestContext } from '../../helpers/harness.js';

export interface Attempt {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The status answered, or null when the attempt failed without one. */
  status: number | null;
  replayed: boolean;
  retryAfter: string | null;
}

/** Makes the test app listen on a free loopback port; answers its base URL. */
export async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('The test app has no TCP address.');
  return `http://127.0.0.1:${address.port}`;
}

/** A step before the real fetch: answer a Response or throw to stand in for the network, or return null to send. */
export type Fault = (request: Request, attempt: Attempt) => Response | null | Promise<Response | null>;

/** A client of the test app with the test's secret key, quick retries, and every attempt recorded in `attempts`. */
export function recordingClient(
  baseUrl: string,
  apiKey: string,
  options: Partial<ClientOptions> & { fault?: Fault; afterAnswer?: Fault } = {},
): { client: MarketplaceClient; attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  const { fault, afterAnswer, ...clientOptions } = options;
  const client = createClient({
    apiKey,
    baseUrl,
    retryDelay: { initialMs: 10, maxMs: 50 },
    ...clientOptions,
    async fetch(request) {
      const attempt: Attempt = {
        method: request.method,
        path: new URL(request.url).pathname,
        idempotencyKey: request.headers.get('Idempotency-Key'),
        status: null,
        replayed: false,
        retryAfter: null,
      };
      attempts.push(attempt);
      const faked = fault ? await fault(request, attempt) : null;
      const response = faked ?? (await fetch(request));
      attempt.status = response.status;
      attempt.replayed = response.headers.get('Idempotent-Replayed') === 'true';
      attempt.retryAfter = response.headers.get('Retry-After');
      const replaced = afterAnswer ? await afterAnswer(request, attempt) : null;
      return replaced ?? response;
    },
  });
  return { client, attempts };
}
