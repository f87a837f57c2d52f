/**
 * The dev stack's Web UI as an operator opens it: the dev server's UI listens on a loopback port of
 * its own, and this passes HTTP through to it on the port the banner names, adding one thing to
 * each page: a script that gives a browser the exchange columns (tool, caller, status, whom it
 * waits on and since when) on its first visit. The UI keeps a browser's columns only in that
 * browser's local storage, and neither the dev server nor the UI's own configuration can preset
 * them; a page of the same origin can. A browser that has columns of its own keeps them.
 *
 * Dev tooling only: production runs Temporal's own UI, where the operator's guide says how to add
 * the columns once per browser (docs/operators.md).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { TemporalDevServerExited } from './dev-server-exit';
import { seedExchangeColumnsScript } from './temporal-ui-columns';

export interface TemporalUiDoorOptions {
  /** The public port (the banner's, TEMPORAL_DEV_UI_PORT) on 127.0.0.1. */
  port: number;
  /** The dev server's own UI port on 127.0.0.1. */
  uiPort: number;
  /** The namespace whose list gets the exchange columns. */
  namespace: string;
}

export interface TemporalUiDoor {
  url: string;
  close(): Promise<void>;
}

/** A page is a few kilobytes (the UI's scripts load separately); one larger is passed on untouched. */
const MAX_PAGE_BYTES = 1_048_576;

/** Binds the public port (a port another process holds fails as the dev server's own bind would). */
export async function openTemporalUiDoor(options: TemporalUiDoorOptions): Promise<TemporalUiDoor> {
  const script = `<script>${seedExchangeColumnsScript(options.namespace)}</script>`;
  const server = createServer((req, res) => pass(req, res, options.uiPort, script));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new TemporalDevServerExited(`the Web UI's port ${options.port} is in use`, options.port)
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function pass(req: IncomingMessage, res: ServerResponse, uiPort: number, script: string): void {
  // Pages come back uncompressed so the script can go in; on loopback that costs nothing.
  const headers = { ...req.headers };
  delete headers['accept-encoding'];
  const upstream = request({ host: '127.0.0.1', port: uiPort, method: req.method, path: req.url, headers }, (reply) => {
    if (!isPage(reply)) {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    reply.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    reply.on('end', () => {
      const page = Buffer.concat(chunks);
      const body = size <= MAX_PAGE_BYTES ? withScript(page.toString('utf8'), script) : page;
      const { 'transfer-encoding': _chunked, 'content-length': _length, ...rest } = reply.headers;
      res.writeHead(reply.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  upstream.on('error', (error) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`Temporal's Web UI is not answering: ${error.message}\n`);
  });
  req.pipe(upstream);
}

const isPage = (reply: IncomingMessage) =>
  (reply.headers['content-type'] ?? '').startsWith('text/html') && !reply.headers['content-encoding'];

/** The script first in the page's head, so it runs before the UI's own reads its columns. */
function withScript(page: string, script: string): string {
  const head = /<head[^>]*>/i.exec(page);
  return head ? page.slice(0, head.index + head[0].length) + script + page.slice(head.index + head[0].length) : page;
}
