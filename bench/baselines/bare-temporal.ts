/**
 * Baseline: bare Temporal doing the bench's rounds with no code of the service. A node:http front
 * (2026-07-28 `tools/call` only) with a Temporal client: leg 1 starts the exchange's workflow, each
 * later leg signals it; the round's activity computes the step and hands it to the leg's waiter, so
 * the HTTP reply goes out when the round has run. `BARE_ROLE` says which parts this process runs:
 * `one` (front and worker in one process, the step handed over in memory), `front` (the front only;
 * steps arrive on `POST /outcome`) or `worker` (the worker only, posting steps to `BARE_FRONT_URL`).
 *
 * A bench child process. Env: `PORT`, `TEMPORAL_ADDRESS`, `BARE_TASK_QUEUE`, `BARE_ACTIVITY`
 * (`regular` or `local`), `BARE_ROLE`, `BARE_FRONT_URL`.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { deliverStep } from './bare-waiters';
import { serveFront } from './bare-front';
import { deliverOverHttp, startBareWorker } from './bare-worker';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const taskQueue = process.env.BARE_TASK_QUEUE ?? 'bench-bare';
const local = process.env.BARE_ACTIVITY === 'local';
const role = process.env.BARE_ROLE ?? 'one';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const name = `bare-${local ? 'local' : 'regular'}${role === 'one' ? '' : `-${role}`}`;
  if (role === 'front') return serveFront(name, { address, taskQueue, local });

  const deliver = role === 'worker' ? deliverOverHttp(process.env.BARE_FRONT_URL!) : deliverStep;
  const worker = await startBareWorker(address, taskQueue, deliver);
  worker.run.catch((error: unknown) => {
    process.stderr.write(`[${name}] worker failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
  if (role === 'one') return serveFront(name, { address, taskQueue, local }, worker.stop);
  const stop = () =>
    void worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`[bare] failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
