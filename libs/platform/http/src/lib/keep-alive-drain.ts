import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';

/** Node's own marker of the response a socket is answering (what its closeIdleConnections() reads too). */
interface HttpSocket extends Socket {
  _httpMessage?: { writableFinished?: boolean } | null;
}

/**
 * The server's sockets, so the drain can tell a keep-alive socket idle since the drain began (safe to close: its
 * client has not used it for the whole drain window) from one that has just connected and not yet sent its
 * request (closing it would reset a client). Node's closeIdleConnections() cannot: both look idle to it.
 * Per-connection bookkeeping only; nothing runs per request until the drain begins.
 */
export class ConnectionWatch {
  private readonly sockets = new Set<HttpSocket>();
  private beforeDrain = new Set<HttpSocket>();
  private readonly usedSinceDrain = new WeakSet<Socket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: HttpSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /**
   * From now on every response says `Connection: close` (Node ends its socket once it is sent), so no client is
   * told it may reuse a socket the drain will close. Prepended: it runs before the engine's own handler.
   */
  beginDrain(): void {
    this.beforeDrain = new Set(this.sockets);
    this.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      this.usedSinceDrain.add(request.socket);
      if (!response.headersSent) response.setHeader('Connection', 'close');
    });
  }

  /**
   * Stops accepting connections without Node's closeIdleConnections() (see above), then closes the sockets that
   * were open before the drain, have carried no request since, and are not answering one now.
   */
  stopAccepting(): void {
    NetServer.prototype.close.call(this.server);
    for (const socket of this.beforeDrain) {
      const answering = socket._httpMessage && !socket._httpMessage.writableFinished;
      if (!this.usedSinceDrain.has(socket) && !answering) socket.destroy();
    }
  }

  get open(): number {
    return this.sockets.size;
  }
}
