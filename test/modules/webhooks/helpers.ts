// Real HTTP receivers on loopback for the webhook tests, and shortcuts to make endpoints and run
// the dispatcher of the test's process.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import type { Json } from '../../helpers/factories.js';
import type { TestContext } from '../../helpers/harness.js';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** What each path answers; paths without one answer 200 "ok". */
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body, at: Date.now() });
      const behaviour = behaviours.get(path);
      if (behaviour) behaviour(req, res, body);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function createEndpoint(ctx: TestContext, body: Record<string, unknown>): Promise<Json> {
  const res = await ctx.request('/v1/webhook_endpoints', { method: 'POST', body: { enabled_events: ['*'], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Runs every due attempt of the test's process and waits until each is recorded. */
export function deliverDue(ctx: TestContext): Promise<number> {
  return ctx.services.background.loop(DISPATCHER).runDue(null, { wait: true });
}

export async function deliveriesOf(ctx: TestContext, endpointId: string): Promise<Json[]> {
  const res = await ctx.request(`/v1/webhook_deliveries?endpoint=${endpointId}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export async function advance(ctx: TestContext, seconds: number): Promise<void> {
  const res = await ctx.request('/v1/test_helpers/clock/advance', { method: 'POST', body: { seconds } });
  expect(res.status, res.text).toBe(200);
  await ctx.services.background.loop(DISPATCHER).idle();
}
