/**
 * The worker process of the fault suite: the real worker main, plus, when FAULT_PAUSE is set, the
 * pause interceptor (fault-pause.ts) that holds it inside a window. FAULT_WORKFLOW_BUNDLE names a
 * workflow bundle built once for the whole stack, so a scenario that restarts workers many times
 * does not bundle the workflows at each start.
 */
import { main } from '../../../cli/start/worker-main';
import { createLogger } from '../../../lib/log';
import { parsePauseSpec, pauseInterceptor } from './fault-pause';

const pause = process.env.FAULT_PAUSE;
const bundle = process.env.FAULT_WORKFLOW_BUNDLE;
const log = createLogger('fault-worker', 'info', { sync: true });

main({
  ...(pause ? { interceptors: { activity: [pauseInterceptor(parsePauseSpec(pause), log)] } } : {}),
  ...(bundle ? { workflowBundle: { codePath: bundle } } : {}),
}).catch((error) => {
  process.stderr.write(`fault worker failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
