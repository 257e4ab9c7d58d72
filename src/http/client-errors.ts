import http from 'node:http';
import type { Duplex } from 'node:stream';
import { AppGeneralError } from '../lib/app-api-errors';

/** A request Node refuses before any handler runs (oversized headers, malformed HTTP): answered in the general
 * error format instead of a bare status line, then the connection is closed. */
export function answerClientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Bytes past a short Content-Length parse as a broken second request: the first one's answer goes out first.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req.complete) {
    inFlight.shouldKeepAlive = false;
    inFlight.once('finish', () => socket.end());
    inFlight.once('close', () => socket.destroy());
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = tooLarge ? 431 : timedOut ? 408 : 400;
  const body = new AppGeneralError(
    status,
    tooLarge ? 'REQUEST_HEADERS_TOO_LARGE' : timedOut ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST',
    tooLarge ? 'Request headers too large.' : timedOut ? 'The request was not received in time.' : 'Malformed HTTP request.',
    {},
  ).body();
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
