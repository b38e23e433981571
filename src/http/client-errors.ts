// Requests Node's HTTP parser refuses before Fastify sees them: request line and headers over
// Node's limit (16 KiB: 431), text that is not HTTP (400), headers that came too slowly (408).
// They are answered like every other error (the envelope, a Request-Id) and the connection is
// closed cleanly: the parser cannot find where the next request on it would start, so the answer
// says Connection: close, and the socket is ended rather than destroyed. Destroying a socket with
// unread bytes in it (the rest of a 20 KB URL) sends a reset, and the client may lose the answer.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { KernelErrorCode } from '../errors.js';
import { newId } from '../ids.js';
import { errorBody, STATUS_BY_CODE } from './error-statuses.js';

/** How long a closed-for-writing connection is read (and discarded) waiting for the client to close. */
const LINGER_MS = 5_000;

interface ClientErrorAnswer {
  code: KernelErrorCode;
  message: string;
}

function answerFor(error: NodeJS.ErrnoException): ClientErrorAnswer {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'request_header_too_large',
      message: `The request line and headers are larger than ${maxHeaderSize / 1024} KiB. Send long values in the body, or shorten the URL.`,
    };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'The request did not arrive in time; send it again on a new connection.' };
  }
  const reason = error.message.replace(/^Parse Error:\s*/, '').replace(/\.$/, '');
  return { code: 'invalid_request', message: `The request is not valid HTTP/1.1 (${reason}).` };
}

type Raw = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/** Fastify's clientErrorHandler: `onError` sees each refusal (metrics). */
export function clientErrorHandler(onError: (status: number) => void = () => undefined) {
  const answered = new WeakSet<Socket>();
  return function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Raw): void {
    // A reset connection has nobody to answer; a socket already answered is closing.
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const { code, message } = answerFor(error);
    const status = STATUS_BY_CODE[code];
    const requestId = newId('request');
    onError(status);
    this.log.info({ reqId: requestId, err: error, status }, 'request refused before routing');
    socket.on('error', () => undefined);
    // An answer already under way on this connection (a pipelined request) cannot be interrupted
    // with another one without corrupting it: then the connection is only closed.
    if (!socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(errorBody(code, message, requestId));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        `Request-Id: ${requestId}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
    // Read and drop what the client still sends until it closes, for at most LINGER_MS.
    socket.resume();
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };
}
