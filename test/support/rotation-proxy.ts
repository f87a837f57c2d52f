/**
 * A load balancer in front of API replicas, for tests of a rolling restart: each request goes to
 * the next replica in rotation (round robin), as a Kubernetes Service sends new connections to the
 * pods that are ready. A replica taken out of rotation gets no new request, while what it already
 * holds (held legs, SSE streams) runs on through the proxy until the replica drains and ends it;
 * the client then comes back, and lands on a replica still in rotation. Streams are piped as they
 * come, so SSE passes through unbuffered. Each request forwarded is recorded (`forwarded`), and
 * whether it is still open, so a test can tell which replica holds a client's stream.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarded {
  method: string;
  path: string;
  /** The replica's origin. */
  target: string;
  /** The request's Last-Event-ID (a resumed SSE stream). */
  lastEventId?: string;
  /** While the exchange with the replica is still open. */
  open: boolean;
}

export interface RotationProxy {
  /** The proxy's origin (`http://127.0.0.1:<port>`): what clients and the answer page's links name. */
  origin: string;
  /** The replicas (their origins) new requests go to, from now on. */
  rotate(origins: readonly string[]): void;
  /** Every request forwarded so far, in order. */
  readonly forwarded: readonly Forwarded[];
  close(): Promise<void>;
}

function forward(req: IncomingMessage, res: ServerResponse, target: string, record: Forwarded[]): void {
  const url = new URL(req.url ?? '/', target);
  const lastEventId = req.headers['last-event-id'];
  const entry: Forwarded = {
    method: req.method ?? 'GET',
    path: url.pathname,
    target,
    ...(typeof lastEventId === 'string' ? { lastEventId } : {}),
    open: true,
  };
  record.push(entry);
  res.on('close', () => (entry.open = false));
  const upstream = http.request(
    { host: url.hostname, port: url.port, method: req.method, path: url.pathname + url.search, headers: req.headers },
    (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      res.flushHeaders();
      reply.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('replica unreachable');
    else res.destroy();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

export async function startRotationProxy(origins: readonly string[] = []): Promise<RotationProxy> {
  let rotation = [...origins];
  let next = 0;
  const forwarded: Forwarded[] = [];
  const server = http.createServer((req, res) => {
    if (rotation.length === 0) {
      res.writeHead(503, { 'retry-after': '1' }).end('no replica in rotation');
      return;
    }
    forward(req, res, rotation[next++ % rotation.length]!, forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    rotate: (replicas) => {
      rotation = [...replicas];
    },
    forwarded,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
