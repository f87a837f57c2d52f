/**
 * The bare baseline's HTTP front: `tools/call` of the bench's tools as 2026-07-28 multi round-trip
 * legs over a Temporal client (leg 1 starts the workflow, later legs signal it, each reply waits
 * for its round's step), and `POST /outcome`, where a worker in another process hands steps over.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { isBenchTool, type Step } from './tools';
import { answersSignal, type BareInput } from './bare-messages';
import { deliverStep, dropWaiter, roundKey, waitForStep } from './bare-waiters';
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
        const { key, step } = JSON.parse(body.toString('utf8')) as { key: string; step: Step };
        deliverStep(key, step);
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

      let exchangeId: string;
      let round: number;
      if (typeof params.requestState === 'string') {
        const [id, asked] = params.requestState.split('.');
        exchangeId = id!;
        round = Number(asked) + 1;
      } else {
        exchangeId = randomUUID();
        round = 1;
      }
      const key = roundKey(exchangeId, round);
      const step = waitForStep(key);
      try {
        if (round === 1) {
          const input: BareInput = { exchangeId, tool: params.name, local, roundTimeoutMs: 600_000 };
          await client.workflow.start('bareExchange', { workflowId: `bare-${exchangeId}`, taskQueue, args: [input] });
        } else {
          await client.workflow
            .getHandle(`bare-${exchangeId}`)
            .signal(answersSignal, { round, answers: params.inputResponses ?? {} });
        }
      } catch (error) {
        dropWaiter(key);
        void step.catch(() => undefined); // its timer still fires; nobody awaits it now
        return fail(-32603, (error as Error).message);
      }
      let outcome: Step;
      try {
        outcome = await step;
      } catch (error) {
        return fail(-32603, (error as Error).message);
      }
      const result =
        outcome.kind === 'ask'
          ? {
              resultType: 'input_required',
              inputRequests: { [outcome.key]: outcome.request },
              requestState: `${exchangeId}.${round}`,
            }
          : { ...outcome.result, resultType: 'complete' };
      replyJson(res, 200, { jsonrpc: '2.0', id: message.id, result });
    },
    async () => {
      await stopWorker();
      await connection.close();
    },
  );
}
