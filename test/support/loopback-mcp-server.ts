/**
 * An MCP server of a test, on a free loopback port: `handle` answers each HTTP request (its body
 * read first); a handler that throws answers 500 with the error. `/mcp` is where clients reach it;
 * `close` drops its connections and stops it (once). `port` puts it on a chosen port: a server a
 * test starts only after its clients were told where it is.
 */
import http from 'node:http';
import { readBody } from '../../bench/baselines/http-child';

export { fetchRequestOf } from '../../bench/baselines/http-child';

export interface LoopbackMcpServer {
  url: string;
  close(): Promise<void>;
}

export type HandleRequest = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => Promise<void>;

export async function serveOnLoopback(handle: HandleRequest, port = 0): Promise<LoopbackMcpServer> {
  const server = http.createServer((req, res) => {
    readBody(req)
      .then((body) => handle(req, body, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
