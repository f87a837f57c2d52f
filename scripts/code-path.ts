/**
 * `npm run code-path`: which source files a modern first leg and its retry pass through, in the
 * API and in the worker (its activities, and the workflow in the SDK's workflow thread), counted
 * from V8 coverage of the real processes on a local stack, after two exchanges have warmed them.
 * `--checkout DIR` (with `--api-main` and `--worker-main`, paths inside it) runs another tree's
 * processes on the same stack, so two trees compare on one machine in one run; `--list` prints the
 * files.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { spawnChild, type Child } from '../cli/dev/child-processes';
import { devServiceEnvironment } from '../cli/dev/dev-environment';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startLocalStack } from '../cli/dev/local-stack/local-stack';
import { waitForHealth, waitForPollers } from '../cli/dev/readiness';
import { createTeardown } from '../cli/dev/teardown';
import { rawCall } from './raw-mcp-call';
import { connectInspector, inspectorUrlFromLog, type InspectorSession } from './inspector-session';
import { startCoverage, type CoverageProbe } from './code-path/covered-files';

const { values: args } = parseArgs({
  options: {
    checkout: { type: 'string', default: projectRoot() },
    'api-main': { type: 'string', default: 'cli/start/api-main.ts' },
    'worker-main': { type: 'string', default: 'cli/start/worker-main.ts' },
    list: { type: 'boolean', default: false },
  },
});
const checkout = path.resolve(args.checkout!);
const TOOL = { name: 'bench_ask_once', arguments: {} };
const ANSWER = { name: { action: 'accept', content: { name: 'Ada' } } };

interface Inspected {
  session: InspectorSession;
  probes: Array<{ thread: string; probe: CoverageProbe }>;
}

/** Starts a main under tsx with its inspector on a free port, and reads the inspector's address from its log. */
async function startInspected(name: string, main: string, env: NodeJS.ProcessEnv, logFile: string) {
  const child: Child = spawnChild(name, process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', main], {
    cwd: checkout,
    env,
    logFile,
  });
  const url = await inspectorUrlFromLog(name, logFile, child.exited);
  return { child, url };
}

async function inspect(url: string): Promise<Inspected> {
  const session = await connectInspector(url);
  const probes = [{ thread: 'main', probe: await startCoverage(session, checkout) }];
  for (const [i, thread] of session.threads().entries())
    probes.push({ thread: `thread ${i + 1}`, probe: await startCoverage(thread, checkout) });
  return { session, probes };
}

async function takeAll(inspected: Inspected): Promise<Set<string>> {
  const files = new Set<string>();
  for (const { probe } of inspected.probes) for (const file of await probe.take()) files.add(file);
  return files;
}

async function exchange(
  url: string,
): Promise<{ first: () => Promise<string>; retry: (state: string) => Promise<void> }> {
  return {
    async first() {
      const reply = await rawCall(url, 'tools/call', TOOL);
      const state = reply.body.result?.requestState;
      if (reply.body.result?.resultType !== 'input_required' || typeof state !== 'string')
        throw new Error(`the first leg did not ask: ${JSON.stringify(reply.body)}`);
      return state;
    },
    async retry(requestState) {
      const reply = await rawCall(url, 'tools/call', { ...TOOL, inputResponses: ANSWER, requestState });
      if (reply.body.result?.resultType !== 'complete')
        throw new Error(`the retry did not complete: ${JSON.stringify(reply.body)}`);
    },
  };
}

function report(phase: string, process: string, files: Set<string>): void {
  const folders = new Map<string, number>();
  for (const file of files) {
    const folder = path.posix.dirname(file);
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  console.log(`${phase}, ${process}: ${files.size} files in ${folders.size} folders`);
  if (args.list) for (const file of [...files].sort()) console.log(`    ${file}`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'code-path-'));
  // Run as root, the embedded Postgres runs as the postgres user, who must enter it.
  chmodSync(dataDir, 0o755);
  const teardown = createTeardown();
  try {
    const local = await startLocalStack({ dataDir, database: 'code_path', persistent: false });
    teardown.add(local.stop);
    const port = await freePort();
    const log = createLogger('code-path', 'warn');
    const env: NodeJS.ProcessEnv = {
      ...devServiceEnvironment(dataDir, local, log),
      NODE_ENV: 'production',
      HANDLERS: 'bench',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    };
    const worker = await startInspected('worker', args['worker-main']!, env, path.join(dataDir, 'worker.log'));
    teardown.addChild(worker.child);
    await waitForPollers(local.temporalAddress, env.TEMPORAL_TASK_QUEUE ?? 'mcp-exchanges', worker.child.exited);
    const api = await startInspected('api', args['api-main']!, env, path.join(dataDir, 'api.log'));
    teardown.addChild(api.child);
    const url = `http://127.0.0.1:${port}/mcp`;
    await waitForHealth(url, api.child.exited);

    const calls = await exchange(url);
    for (let i = 0; i < 2; i++) await calls.retry(await calls.first());
    const inspected = { api: await inspect(api.url), worker: await inspect(worker.url) };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
    await settle();
    for (const process of Object.values(inspected)) await takeAll(process);
    // What runs with no exchange in flight (timers, pools) over one settle: it is in each phase too.
    await settle();
    const idle = { api: await takeAll(inspected.api), worker: await takeAll(inspected.worker) };

    console.log(`the tree at ${checkout}`);
    const state = await calls.first();
    await settle();
    const firstLeg = { api: await takeAll(inspected.api), worker: await takeAll(inspected.worker) };
    await calls.retry(state);
    await settle();
    const retry = { api: await takeAll(inspected.api), worker: await takeAll(inspected.worker) };
    for (const [phase, files] of [
      ['idle', idle],
      ['first leg', firstLeg],
      ['retry', retry],
    ] as const) {
      report(phase, 'API', files.api);
      report(phase, 'worker', files.worker);
      report(phase, 'both', new Set([...files.api, ...files.worker]));
    }
    for (const process of Object.values(inspected)) process.session.close();
  } finally {
    await teardown.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
