/**
 * The `floor` target's client, in the bench's own process: bare Temporal with no HTTP leg. A call's
 * first leg starts the exchange's workflow and a later one signals it, as the service's API does,
 * and the leg ends when the round's step arrives on `POST /outcome` from the worker in another
 * process (bare-temporal.ts as `worker`, posting over a kept-alive connection). The step comes back
 * as the result a 2026-07-28 server would send, so the load generator checks it as it checks every
 * target's. What no MCP server can skip is left out: the leg's own HTTP request and reply, and the
 * JSON-RPC around it; that is what makes this the engine's floor, below `bare-split`.
 */
import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import type { Caller } from '../load';
import { runBareLeg } from './bare-leg';
import { deliverPostedStep } from './bare-waiters';
import { readBody } from './http-child';
import { isBenchTool } from './tools';

export interface FloorClient {
  call: Caller;
  /** Where the worker posts each round's step. */
  outcomeUrl: string;
  close(): Promise<void>;
}

export async function startFloorClient(address: string, taskQueue: string): Promise<FloorClient> {
  const receiver = http.createServer((req, res) => {
    readBody(req)
      .then((body) => {
        deliverPostedStep(body);
        res.writeHead(204).end();
      })
      // An unreadable or unparsable post: the worker's delivery fails, so its round says why.
      .catch(() => res.writeHead(400).end());
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });

  const call: Caller = async (params) => {
    if (!isBenchTool(params.name)) throw new Error(`unknown tool ${String(params.name)}`);
    return runBareLeg(client, { taskQueue, local: true }, { ...params, name: params.name });
  };

  return {
    call,
    outcomeUrl: `http://127.0.0.1:${(receiver.address() as { port: number }).port}`,
    async close() {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await connection.close();
    },
  };
}
