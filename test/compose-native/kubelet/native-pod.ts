/**
 * One container of a rendered pod run as a kubelet runs it, as a process of this host
 * (pod-sandbox.ts confines it): started, then its startup probe until it passes, then its
 * readiness probe (the pod is in its Services' endpoints while it passes: `onReady`) and its
 * liveness probe (failing `failureThreshold` times in a row, the container is stopped and, by the
 * pod's `restartPolicy`, started again), each every `periodSeconds`. A container of a
 * `restartPolicy: Always` pod that exits is started again after the kubelet's back-off (10 s,
 * doubling, at most 5 min). A stop is Kubernetes': out of the endpoints, the `preStop` hook run in
 * the container, then SIGTERM, then SIGKILL once `terminationGracePeriodSeconds` (counted from the
 * start of the hook) has run out. A Job's pod (`runJobPod`) runs to completion, a new one after
 * each failure up to `backoffLimit`, within `activeDeadlineSeconds`.
 */
import { spawn } from 'node:child_process';
import { spawnChild, type Child, type ChildExit } from '../../../cli/dev/child-processes';
import { inContainer, sandboxed, type PodSecurity, type SandboxSupport } from './pod-sandbox';
import { failureThreshold, periodMs, runProbe, type Probe } from './probes';

export interface PodDefinition {
  name: string;
  /** The pod's address. */
  ip: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  probes: { startup?: Probe; liveness?: Probe; readiness?: Probe };
  preStop?: string[];
  terminationGracePeriodSeconds: number;
  /** The container's ports by name. */
  ports: Record<string, number>;
  security: PodSecurity;
  /** Its emptyDir folders. */
  writable: string[];
  sandbox: SandboxSupport;
  logFile: string;
}

export interface StopOutcome {
  exit: ChildExit;
  /** From the start of the preStop hook to the exit. */
  afterMs: number;
  /** Whether the grace ran out and SIGKILL ended it. */
  killed: boolean;
}

export interface NativePod {
  readonly definition: PodDefinition;
  /** The running container's process id. */
  pid(): number | undefined;
  ready(): boolean;
  restarts(): number;
  /** What happened to it, as `kubectl describe pod` lists events. */
  readonly events: string[];
  waitReady(timeoutMs: number): Promise<void>;
  stop(): Promise<StopOutcome>;
  /** Runs `argv` in the container, as `kubectl exec`. */
  exec(argv: string[]): Promise<{ code: number | null; output: string }>;
}

const BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 300_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function launch(definition: PodDefinition): Child {
  const [program, ...args] = definition.argv;
  const run = sandboxed(program!, args, definition.security, definition.writable, definition.sandbox);
  return spawnChild(definition.name, run.command, run.args, {
    env: definition.env,
    cwd: definition.cwd,
    logFile: definition.logFile,
  });
}

export function execIn(definition: PodDefinition, pid: number, argv: string[]) {
  const run = inContainer(pid, argv, definition.security, definition.sandbox);
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(run.command, run.args, { env: definition.env, cwd: definition.cwd });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

export function startPod(definition: PodDefinition, onReady: (ready: boolean) => void = () => {}): NativePod {
  const events: string[] = [];
  const event = (line: string) => events.push(`${new Date().toISOString()} ${line}`);
  let child: Child | undefined;
  let isReady = false;
  let stopping = false;
  let restarts = 0;
  const setReady = (ready: boolean) => {
    if (ready === isReady) return;
    isReady = ready;
    event(ready ? 'Ready' : 'NotReady');
    onReady(ready);
  };
  const current = (run: Child) => child === run && !stopping && run.exited() === undefined;

  /** Stops the container as Kubernetes does: preStop, SIGTERM, SIGKILL when the grace runs out. */
  const terminate = async (run: Child): Promise<StopOutcome> => {
    const started = Date.now();
    const graceMs = definition.terminationGracePeriodSeconds * 1000;
    setReady(false);
    if (definition.preStop && run.exited() === undefined) {
      event(`PreStop ${definition.preStop.join(' ')}`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        execIn(definition, run.pid, definition.preStop),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    const left = Math.max(0, graceMs - (Date.now() - started));
    event('Killing (SIGTERM)');
    await run.stop(left, 'SIGTERM');
    const exit = await run.exit;
    return { exit, afterMs: Date.now() - started, killed: exit.signal === 'SIGKILL' };
  };

  const probeLoops = async (run: Child) => {
    const { startup, readiness, liveness } = definition.probes;
    if (startup) {
      for (let failures = 0; ; await sleep(periodMs(startup))) {
        if (!current(run)) return;
        if (await runProbe(startup, definition.ip, definition.ports)) break;
        if (++failures >= failureThreshold(startup)) {
          event('Startup probe failed: restarting');
          void terminate(run);
          return;
        }
      }
      event('Started (startup probe passed)');
    }
    if (!readiness) setReady(true);
    let [readyFailures, liveFailures] = [0, 0];
    for (let at = 0; current(run); at += 1) {
      if (readiness && (at * 1000) % periodMs(readiness) === 0) {
        const passed = await runProbe(readiness, definition.ip, definition.ports);
        if (!current(run)) return;
        readyFailures = passed ? 0 : readyFailures + 1;
        if (passed) setReady(true);
        else if (readyFailures >= failureThreshold(readiness)) setReady(false);
      }
      if (liveness && at > 0 && (at * 1000) % periodMs(liveness) === 0) {
        const passed = await runProbe(liveness, definition.ip, definition.ports);
        liveFailures = passed ? 0 : liveFailures + 1;
        if (current(run) && liveFailures >= failureThreshold(liveness)) {
          event('Liveness probe failed: restarting');
          void terminate(run);
          return;
        }
      }
      await sleep(1000);
    }
  };

  const start = () => {
    const run = launch(definition);
    child = run;
    event(`Started pid ${run.pid}`);
    void probeLoops(run);
    void run.exit.then(async (exit) => {
      if (child !== run) return;
      setReady(false);
      event(`Exited code ${exit.code} signal ${exit.signal}`);
      if (stopping) return;
      const backoff = Math.min(BACKOFF_MS * 2 ** restarts, MAX_BACKOFF_MS);
      restarts += 1;
      event(`Back-off ${backoff / 1000} s restarting`);
      await sleep(backoff);
      if (!stopping) start();
    });
  };
  start();

  return {
    definition,
    pid: () => (child && child.exited() === undefined ? child.pid : undefined),
    ready: () => isReady,
    restarts: () => restarts,
    events,
    async waitReady(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!isReady) {
        if (Date.now() > deadline)
          throw new Error(
            `pod ${definition.name} not ready in ${timeoutMs} ms:\n${events.join('\n')}\n${child?.output().slice(-3000)}`,
          );
        await sleep(100);
      }
    },
    async stop() {
      stopping = true;
      if (!child) throw new Error(`pod ${definition.name} never started`);
      return terminate(child);
    },
    exec(argv) {
      const pid = child?.exited() === undefined ? child?.pid : undefined;
      if (pid === undefined) return Promise.resolve({ code: null, output: `pod ${definition.name} is not running` });
      return execIn(definition, pid, argv);
    },
  };
}

/** Runs a Job's pod to completion: a new pod after each failure, up to `backoffLimit`, within the deadline. */
export async function runJobPod(
  definition: PodDefinition,
  job: { backoffLimit?: number; activeDeadlineSeconds?: number },
): Promise<{ attempts: number; output: string }> {
  const deadline = Date.now() + (job.activeDeadlineSeconds ?? 600) * 1000;
  for (let attempt = 1; ; attempt += 1) {
    const run = launch({ ...definition, name: `${definition.name}-${attempt}` });
    const timer = setTimeout(() => void run.stop(0, 'SIGKILL'), Math.max(0, deadline - Date.now()));
    const exit = await run.exit;
    clearTimeout(timer);
    if (exit.code === 0) return { attempts: attempt, output: run.output() };
    if (attempt > (job.backoffLimit ?? 6) || Date.now() >= deadline)
      throw new Error(`Job pod ${definition.name} failed (${attempt} attempts):\n${run.output().slice(-3000)}`);
    await sleep(Math.min(BACKOFF_MS * 2 ** (attempt - 1), Math.max(0, deadline - Date.now())));
  }
}
