/**
 * The bare baseline's worker: the workflow of bare-workflow.ts and its one activity, which computes
 * the round's step and hands it to the waiting leg through `deliver` (in process, or over HTTP to a
 * front in another process) before it returns, as the service's round posts its outcome before its
 * workflow task completes.
 */
import http from 'node:http';
import { NativeConnection, Worker } from '@temporalio/worker';
import { acceptedString, benchStep, type Step } from './tools';
import type { BareActivities } from './bare-messages';
import { roundKey } from './bare-waiters';

export type Deliver = (key: string, step: Step) => Promise<void> | void;

export async function startBareWorker(address: string, taskQueue: string, deliver: Deliver) {
  const activities: BareActivities = {
    async runRound({ exchangeId, tool, round, answers, known }) {
      const next = {
        name: known.name ?? acceptedString(answers, 'name'),
        color: known.name !== undefined ? (known.color ?? acceptedString(answers, 'color')) : undefined,
      };
      const step = benchStep(tool, next);
      await deliver(roundKey(exchangeId, round), step);
      return { kind: step.kind, known: next };
    },
  };
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowsPath: require.resolve('./bare-workflow'),
    activities,
  });
  const run = worker.run();
  return {
    run,
    async stop() {
      worker.shutdown();
      await run;
      await connection.close();
    },
  };
}

/**
 * A `Deliver` that posts the step to a front in another process (`POST <front>/outcome`), on a
 * kept-alive connection through node:http, the cheapest honest channel between two processes.
 */
export function deliverOverHttp(frontUrl: string): Deliver {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL('/outcome', frontUrl);
  return (key, step) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ key, step });
      const request = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode! < 300
              ? resolve()
              : reject(new Error(`the front refused the outcome of ${key}: HTTP ${response.statusCode}`)),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}
