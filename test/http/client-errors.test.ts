// Requests Node's HTTP parser refuses before Fastify sees them answer in the error envelope with a
// Request-Id, say Connection: close and close the connection cleanly; a new connection works.
// Driven over raw sockets: an HTTP client library would refuse to send such requests.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/harness.js';

const OPERATOR_TOKEN = 'operator-token-for-client-error-tests';
let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp({ env: { OPERATOR_TOKEN } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as { port: number }).port;
});
afterAll(() => ctx.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection; the client then closes too. */
function readToEnd(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      socket.end();
      resolve(text);
    });
  });
}

/** Reads exactly one answer with a Content-Length on a connection that stays open. */
function readOne(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const answer = parseAnswer(text);
      if (Buffer.byteLength(answer.body) < Number(answer.headers['content-length'])) return;
      socket.off('data', onData);
      resolve(answer);
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['request-id']).toMatch(/^req_/);
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ error: { code, message: expect.any(String), request_id: answer.headers['request-id'] } });
  return body.error.message as string;
}

async function newConnectionWorks() {
  const socket = await open();
  const done = readOne(socket);
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  expect((await done).status).toBe(200);
  socket.destroy();
}

describe('requests refused before routing', () => {
  it('a 20 KB URL answers 431 request_header_too_large in the envelope, closes, and a new connection works', async () => {
    const socket = await open();
    const answer = readToEnd(socket);
    socket.write(`GET /v1/marketplace?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const message = expectEnvelope(parseAnswer(await answer), 431, 'request_header_too_large');
    expect(message).toContain('16 KiB');
    await newConnectionWorks();
  });

  it('on a keep-alive connection: the request before is answered, the oversize one gets the envelope and the close', async () => {
    const socket = await open();
    const first = readOne(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await first).status).toBe(200);
    const rest = readToEnd(socket);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(parseAnswer(await rest), 431, 'request_header_too_large');
    await newConnectionWorks();
  });

  it('a malformed request line answers 400 invalid_request in the envelope, and closes', async () => {
    const socket = await open();
    const answer = readToEnd(socket);
    socket.write('HELLO THERE\r\n\r\n');
    const message = expectEnvelope(parseAnswer(await answer), 400, 'invalid_request');
    expect(message).toMatch(/not valid HTTP\/1\.1/);
    await newConnectionWorks();
  });

  it('a request whose headers come too slowly answers 408 request_timeout (as Node reports it)', async () => {
    // Node's headersTimeout is a minute: the test hands the server the error Node raises then.
    const accepted = new Promise<Socket>((resolve) => ctx.app.server.once('connection', resolve));
    const socket = await open();
    const serverSide = await accepted;
    const answer = readToEnd(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    ctx.app.server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), serverSide);
    expectEnvelope(parseAnswer(await answer), 408, 'request_timeout');
  });

  it('counts the refusals in GET /metrics by status', async () => {
    const res = await ctx.request('/metrics', { key: OPERATOR_TOKEN });
    expect(res.text).toMatch(/^http_client_errors_total\{status="431"\} 2$/m);
    expect(res.text).toMatch(/^http_client_errors_total\{status="400"\} 1$/m);
  });
});
