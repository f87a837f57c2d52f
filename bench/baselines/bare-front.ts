/**
 * The bare baseline's HTTP front: `tools/call` of the bench's tools as 2026-07-28 multi round-trip
 * legs over a Temporal client (leg 1 starts the workflow, later legs signal it, each reply waits
 * for its round's step), and `POST /outcome`, where a worker in another process hands steps over.
 */
import { Client, Connection } from '@temporalio/client';
import { isBenchTool } from './tools';
import { runBareLeg } from './bare-leg';
import { deliverPostedStep } from './bare-waiters';
import { replyJson, serveBaseline } from './http-child';

interface FrontOptions {
  address: string;
  taskQueue: string;
  local: boolean;
}

export async function serveFront(
  name: string,
  { address, taskQueue, local }: FrontOptions,
  stopWorker: () => Promise<void> = async () => undefined,
): Promise<void> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });

  serveBaseline(
    name,
    async (req, body, res) => {
      if (req.method === 'POST' && req.url === '/outcome') {
        deliverPostedStep(body);
        res.writeHead(204).end();
        return;
      }
      const message = JSON.parse(body.toString('utf8')) as {
        id: unknown;
        method?: string;
        params?: { name?: unknown; inputResponses?: Record<string, unknown>; requestState?: unknown };
      };
      const fail = (code: number, text: string) =>
        replyJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code, message: text } });
      const params = message.params ?? {};
      if (message.method !== 'tools/call' || !isBenchTool(params.name)) return fail(-32602, 'unknown tool');
      let result: Record<string, unknown>;
      try {
        result = await runBareLeg(client, { taskQueue, local }, { ...params, name: params.name });
      } catch (error) {
        return fail(-32603, (error as Error).message);
      }
      replyJson(res, 200, { jsonrpc: '2.0', id: message.id, result });
    },
    async () => {
      await stopWorker();
      await connection.close();
    },
  );
}
