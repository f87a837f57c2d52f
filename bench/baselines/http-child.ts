/**
 * What the baseline servers share: a node:http server on `PORT` (127.0.0.1) that answers
 * `GET /healthz` itself and hands everything else to the baseline, and a SIGTERM/SIGINT stop that
 * closes it and then the baseline's own parts.
 */
import http from 'node:http';

export type Handle = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => Promise<void>;

export async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A node request as the web-standard Request an SDK's `fetch`-style handler takes. */
export function fetchRequestOf(req: http.IncomingMessage, body: Buffer): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? body : undefined,
  });
}

export function serveBaseline(name: string, handle: Handle, stop: () => Promise<void>): void {
  const port = Number(process.env.PORT ?? 0);
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    readBody(req)
      .then((body) => handle(req, body, res))
      .catch((error: unknown) => {
        process.stderr.write(`[${name}] ${(error as Error).stack ?? String(error)}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('internal error');
      });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => {
    process.stderr.write(`[${name}] listening on http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
  });
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.closeAllConnections();
    server.close();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[${name}] did not stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

export function replyJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
