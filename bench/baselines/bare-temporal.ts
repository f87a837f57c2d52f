/**
 * Baseline: bare Temporal doing the bench's rounds with no code of the service. One process holds
 * a node:http server (2026-07-28 `tools/call` only), a Temporal client and a worker: leg 1 starts
 * the exchange's workflow, each later leg signals it; the round's activity computes the step and
 * resolves the leg's in-process waiter, so the HTTP reply goes out when the round has run.
 *
 * A bench child process. Env: `PORT`, `TEMPORAL_ADDRESS`, `BARE_TASK_QUEUE`, `BARE_ACTIVITY`
 * (`regular` or `local`).
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Step } from './tools';
import { acceptedString, benchStep, isBenchTool } from './tools';
import { answersSignal, type BareActivities, type BareInput } from './bare-messages';
import { replyJson, serveBaseline } from './http-child';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const taskQueue = process.env.BARE_TASK_QUEUE ?? 'bench-bare';
const local = process.env.BARE_ACTIVITY === 'local';
const LEG_WAIT_MS = 30_000;

/** The leg waiting for each round's step, by `exchangeId:round`. */
const waiters = new Map<string, (step: Step) => void>();

const activities: BareActivities = {
  async runRound({ exchangeId, tool, round, answers, known }) {
    const next = {
      name: known.name ?? acceptedString(answers, 'name'),
      color: known.name !== undefined ? (known.color ?? acceptedString(answers, 'color')) : undefined,
    };
    const step = benchStep(tool, next);
    const key = `${exchangeId}:${round}`;
    waiters.get(key)?.(step);
    waiters.delete(key);
    return { kind: step.kind, known: next };
  },
};

function waitFor(key: string): Promise<Step> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(key);
      reject(new Error(`round ${key} did not run within ${LEG_WAIT_MS} ms`));
    }, LEG_WAIT_MS);
    waiters.set(key, (step) => {
      clearTimeout(timer);
      resolve(step);
    });
  });
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const workerConnection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowsPath: require.resolve('./bare-workflow'),
    activities,
  });
  const run = worker.run();

  serveBaseline(
    `bare-${local ? 'local' : 'regular'}`,
    async (_req, body, res) => {
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
      const key = `${exchangeId}:${round}`;
      const step = waitFor(key);
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
        waiters.delete(key);
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
      worker.shutdown();
      await run;
      await workerConnection.close();
      await connection.close();
    },
  );
  run.catch((error: unknown) => {
    process.stderr.write(`[bare] worker failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`[bare] failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
