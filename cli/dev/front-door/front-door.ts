/**
 * The API's port, held by `durable-mcp dev` itself for as long as it runs, so that a client never
 * meets a refused connection while the service restarts (a reload on save, a crash) or while the
 * stack starts: the port is bound before Temporal and Postgres start, and the service process
 * listens on a port of its own that this passes connections through to, byte for byte (plain TCP:
 * TLS-free HTTP, SSE streams and keep-alive alike; the service sees every client as this process).
 *
 * While the service is not serving (starting, draining, stopped), a new connection is held unread.
 * When the service serves again, held connections go through to it untouched, so a 2026-07-28 leg
 * that came back, or a handshake-era client resuming its stream with `Last-Event-ID`, just waits a
 * little longer. One still held after `holdMs` (HTTP_WAIT_MS, a leg's own wait) is read and
 * answered here (come-back-reply.ts), as the API answers a leg whose outcome is not ready.
 *
 * Why a pass-through rather than handing the listening socket to the service process: a socket the
 * service closes at its drain would leave the port unbound until the next process binds it, which
 * is the refused connection this is here to prevent, and connections accepted here while nothing
 * serves could not be given back.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../../lib/log';
import { comeBackReply } from './come-back-reply';

export interface FrontDoorOptions {
  host: string;
  /** The public port (0: one picked here). */
  port: number;
  /** How long a connection is held for a service that is not serving before it is answered here. */
  holdMs: number;
  /** What the 503s answered here ask a client to wait (`Retry-After`). */
  retryAfterS: number;
  log: Logger;
}

export interface ServiceAddress {
  host: string;
  port: number;
}

export interface FrontDoor {
  /** The port bound. */
  readonly port: number;
  /** Connections go through to the service at `address` from now on; held ones go first. */
  serve(address: ServiceAddress): void;
  /** New connections are held from now on (the service is stopping, or has stopped). */
  hold(): void;
  /** Stops taking connections, answers every held one here now, and resolves once the port is free. */
  close(): Promise<void>;
}

/** The largest body read from a held request before it is answered (a leg is far smaller). */
const MAX_BODY_BYTES = 1_048_576;

/** Binds `host:port` (rejects at once when the port is taken) and holds connections until `serve`. */
export async function openFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  const { log } = options;
  let target: ServiceAddress | undefined;
  let closing = false;
  const held = new Map<Socket, NodeJS.Timeout>();

  // Requests answered here: a server that never listens, given the held connections it answers.
  const answering = createHttpServer((req, res) => answer(req, res, options.retryAfterS));
  answering.keepAliveTimeout = 1;

  const answerHere = (socket: Socket) => {
    release(socket);
    answering.emit('connection', socket);
    socket.resume();
  };
  const release = (socket: Socket) => {
    clearTimeout(held.get(socket));
    held.delete(socket);
  };
  const holdSocket = (socket: Socket) => {
    if (closing) return answerHere(socket);
    held.set(
      socket,
      setTimeout(() => answerHere(socket), options.holdMs),
    );
  };
  const passThrough = (socket: Socket, address: ServiceAddress) => {
    release(socket);
    const upstream = connect(address.port, address.host);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
    });
    upstream.on('error', () => {
      // Refused before it connected: the service stopped listening (a drain, a crash) before this
      // heard; the connection waits for the next one, unread.
      if (!connected && !socket.destroyed) {
        if (target === address) target = undefined;
        return holdSocket(socket);
      }
      socket.destroy();
    });
    upstream.on('close', () => {
      if (connected) socket.end();
    });
    socket.on('close', () => upstream.destroy());
  };

  const server: Server = createServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => socket.destroy());
    socket.on('close', () => release(socket));
    if (target && !closing) passThrough(socket, target);
    else holdSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };

  return {
    port,
    serve(address) {
      if (closing) return;
      target = address;
      const waiting = [...held.keys()];
      if (waiting.length > 0) log.info({ connections: waiting.length }, 'passing held connections to the service');
      for (const socket of waiting) passThrough(socket, address);
    },
    hold() {
      target = undefined;
    },
    async close() {
      closing = true;
      target = undefined;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of [...held.keys()]) answerHere(socket);
      answering.closeIdleConnections();
      await closed;
    },
  };
}

/** Reads the request (up to MAX_BODY_BYTES) and answers it with `comeBackReply`, closing the connection. */
function answer(req: IncomingMessage, res: ServerResponse, retryAfterS: number): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0]!;
    const reply = comeBackReply(req.method ?? 'GET', path, Buffer.concat(chunks).toString('utf8'), retryAfterS);
    const body = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...reply.headers,
      Connection: 'close',
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
}
