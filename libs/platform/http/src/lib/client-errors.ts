import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorPresenter } from '@acme/platform-errors';

/**
 * A request Node's HTTP parser refuses before any framework sees it (headers over 16 KB, a broken request
 * line) gets the API's own error body instead of Node's bare 400/431 (docs/decisions.md#each-api-keeps-its-own-wire-format).
 */
export function clientErrorResponder(present: ErrorPresenter): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const presented = present({
      status: tooLarge ? 431 : 400,
      code: tooLarge ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST',
      kind: 'validation',
      message: tooLarge ? 'The request headers are too large.' : 'The request could not be parsed.',
      requestId: randomUUID(),
    });
    const body = JSON.stringify(presented.body);
    const headers = Object.entries(presented.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${presented.status} ${STATUS_CODES[presented.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${headers}\r\n${body}`,
    );
  };
}
