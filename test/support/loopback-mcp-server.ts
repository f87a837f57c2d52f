/**
 * An MCP server of a test, on a free loopback port: `handle` answers each HTTP request (its body
 * read first); a handler that throws answers 500 with the error. `/mcp` is where clients reach it;
 * `close` drops its connections and stops it (once).
 */
import http from 'node:http';
import { readBody } from '../../bench/baselines/http-child';

export { fetchRequestOf } from '../../bench/baselines/http-child';

export interface LoopbackMcpServer {
  url: string;
  close(): Promise<void>;
}

export type HandleRequest = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => Promise<void>;

export async function serveOnLoopback(handle: HandleRequest): Promise<LoopbackMcpServer> {
  const server = http.createServer((req, res) => {
    readBody(req)
      .then((body) => handle(req, body, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
