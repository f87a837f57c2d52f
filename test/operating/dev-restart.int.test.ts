/**
 * `durable-mcp dev` restarted under clients waiting on a person, as a user runs it: the command as
 * an OS process (its own embedded Postgres and Temporal dev server in a data folder), the demo's
 * `refund_order` called by each official client in node_modules (2.x pinned to 2026-07-28, 2.x
 * negotiating 2025-11-25, the 1.x SDK), its question answered by a person on the answer page
 * (development sign-in). Two restarts:
 *
 * - the service restarted against the same Temporal and Postgres (a reload on save: API and
 *   worker stopped and started, as a rolling restart would), while the command holds the API's
 *   port: every client gets its result, none sees an error;
 * - the whole command stopped as a terminal's Ctrl-C stops it (SIGINT to its process group) and
 *   started again on the same data folder: it stops in order and comes back on the same ports;
 *   what each client gets, and what coming back after the restart gives.
 *
 * The Python clients (`mcp` in its default and legacy modes, FastMCP) and the Go and Rust SDKs'
 * are run through both too.
 */

import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';
import { Browser, locationOf } from '../answers/browser';
import { until } from '../support/until';
import { spawnDev, type DevRun } from './dev-process';
import { goClient, goClientProgram } from '../clients/go-client';
import { rustClient, rustClientProgram } from '../clients/rust-client';
import { pendingHandleIn, type Observation } from '../clients/observation';
import { pythonClient, pythonModuleMissing } from '../clients/python-client';

const SAME_ORIGIN = { origin: 'null', 'sec-fetch-site': 'same-origin' };
const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(path.join(tmpdir(), 'dev-restart-'));
chmodSync(work, 0o755); // as root, the embedded Postgres runs as the user postgres, who must enter it
const moduleDir = path.join(work, 'tools');
const moduleFile = path.join(moduleDir, 'tools.ts');
const dataDir = path.join(work, 'data');
const ports = { api: 0, temporal: 0, ui: 0 };
let origin = '';
let mcpUrl = '';

/** One run of `durable-mcp dev`: its process (leading a process group, as in a terminal) and its output. */
let dev: DevRun | undefined;

async function startDev(): Promise<DevRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports.api),
    TEMPORAL_DEV_PORT: String(ports.temporal),
    TEMPORAL_DEV_UI_PORT: String(ports.ui),
    WORKER_METRICS_PORT: '0',
    // A leg waiting on the person is held past the restart, not answered "come back" before it.
    QUESTION_HOLD_MS: '30000',
  };
  // Its own stack, as a user's: no Postgres or Temporal of the test run's.
  const run = spawnDev([moduleFile, '--data-dir', dataDir], env);
  await until(
    'durable-mcp dev to serve',
    async () => {
      if (run.process.exitCode !== null) throw new Error(`durable-mcp dev exited:\n${run.output()}`);
      return /MCP endpoint +(\S+)/.exec(run.output())?.[1];
    },
    180_000,
  );
  return run;
}

/** A terminal's Ctrl-C: SIGINT to the whole foreground process group. */
const ctrlC = (run: DevRun) => process.kill(-run.process.pid!, 'SIGINT');

const lines = (run: DevRun, msg: string) =>
  run
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`)).length;

/** Whether a TCP connection to `port` on loopback is taken. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A refund approver signed in at the answer page through its development sign-in. */
async function approver(): Promise<Browser> {
  const browser = new Browser();
  const inbox = await browser.request(`${origin}/answers`);
  const form = await (await browser.request(locationOf(inbox, `${origin}/answers`))).text();
  const fields = { csrf: hidden(form, 'csrf')!, return: '/answers', subject: 'rita', name: 'Rita Approver' };
  const signedIn = await browser.post(
    `${origin}/answers/sign-in`,
    { ...fields, groups: 'refund-approvers' },
    SAME_ORIGIN,
  );
  expect(signedIn.status).toBe(303);
  return browser;
}

/** The id of the question about `order` in the approver's inbox, once it is there. */
const questionAbout = (browser: Browser, order: string) =>
  until(`the question about ${order}`, async () => {
    const page = await (await browser.request(`${origin}/answers`)).text();
    const item = page.split('<li>').find((entry) => entry.includes(`order ${order} `));
    return item ? /href="\/answers\/q\/([^"]+)"/.exec(item)?.[1] : undefined;
  });

async function approve(browser: Browser, id: string): Promise<void> {
  const page = await (await browser.request(`${origin}/answers/q/${id}`)).text();
  const answered = await browser.post(
    `${origin}/answers/q/${id}`,
    { csrf: hidden(page, 'csrf')!, shown: hidden(page, 'shown')!, action: 'accept' },
    SAME_ORIGIN,
  );
  expect(answered.status).toBe(303);
}

const refund = (order: string) => ({ name: 'refund_order', arguments: { order, amount: 5, reason: 'broken' } });
const refunded = (order: string) => `Refunded 5 on order ${order}, approved by Rita Approver.`;
/** Long enough for any restart here; the call's own budget is not what is tested. */
const CALL_OPTIONS = { timeout: 240_000 };

/**
 * The 2.x client pinned to 2026-07-28 on its manual path (`autoFulfill: false`): each leg's result
 * comes back to the caller, which keeps the last requestState and comes back with it when it likes.
 */
async function manualCaller(order: string) {
  const client = new ModernClient(
    { name: 'desk-2026-manual', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(new ModernTransport(new URL(mcpUrl)));
  let requestState: string | undefined;
  const leg = async () => {
    const params = { ...refund(order), ...(requestState ? { requestState } : {}) };
    const result = (await client.callTool(params, { ...CALL_OPTIONS, allowInputRequired: true })) as Record<
      string,
      unknown
    >;
    if (result.resultType === 'input_required') requestState = result.requestState as string;
    return result;
  };
  return { client, leg, requestState: () => requestState };
}

/** The 1.x client with its stream retried for as long as a restart takes (120 × 0.5 s). */
async function patientLegacyCaller(order: string) {
  const client = new LegacyClient({ name: 'desk-1x-patient', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new LegacyTransport(new URL(mcpUrl), { reconnectionOptions: PATIENT_RECONNECTION }));
  const call = client.callTool(refund(order), undefined, CALL_OPTIONS).then(
    (result) => ({ text: textOf(result) }),
    (error: Error) => ({ error: error.message }),
  );
  return { client, call };
}
const PATIENT_RECONNECTION = {
  maxRetries: 120,
  initialReconnectionDelay: 500,
  maxReconnectionDelay: 500,
  reconnectionDelayGrowFactor: 1,
};

/** The three official clients, each calling refund_order for its own order; what each got. */
async function threeCalls(orders: [string, string, string]) {
  const modern = new ModernClient(
    { name: 'desk-2026', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new ModernTransport(new URL(mcpUrl)));
  const negotiating = new ModernClient({ name: 'desk-2025', version: '1.0.0' }, { capabilities: {} });
  const negotiatingErrors: Error[] = [];
  const negotiatingTransport = new ModernTransport(new URL(mcpUrl));
  await negotiating.connect(negotiatingTransport);
  negotiating.onerror = (error) => void negotiatingErrors.push(error);
  const legacy = new LegacyClient({ name: 'desk-1x', version: '1.0.0' }, { capabilities: {} });
  const legacyErrors: Error[] = [];
  await legacy.connect(new LegacyTransport(new URL(mcpUrl)));
  legacy.onerror = (error) => void legacyErrors.push(error);
  const settle = (call: Promise<unknown>) =>
    call.then(
      (result) => ({ text: textOf(result) }),
      (error: Error) => ({ error: `${error.message}${error.cause ? `: ${String(error.cause)}` : ''}` }),
    );
  const calls = {
    modern: settle(modern.callTool(refund(orders[0]), CALL_OPTIONS)),
    negotiating: settle(negotiating.callTool(refund(orders[1]), CALL_OPTIONS)),
    legacy: settle(legacy.callTool(refund(orders[2]), undefined, CALL_OPTIONS)),
  };
  return {
    calls,
    negotiatedVersion: () => negotiating.getNegotiatedProtocolVersion?.(),
    errors: { negotiating: negotiatingErrors, legacy: legacyErrors },
    async close() {
      await Promise.allSettled([modern.close(), negotiating.close(), legacy.close()]);
    },
  };
}

const go = goClientProgram();
const rust = rustClientProgram();

/**
 * The clients run as a program of their own: the Python ones (the `mcp` SDK's `Client` in its
 * default mode and in legacy mode, FastMCP's) and the Go SDK's, each calling refund_order for its
 * own order with its defaults; those that cannot run here are left out (CI installs them).
 */
async function programCalls(prefix: string) {
  const present = (
    [
      ['mcp', pythonClient({ client: 'mcp', mode: 'auto', maxRounds: 10 }), pythonModuleMissing('mcp')],
      ['mcp-legacy', pythonClient({ client: 'mcp', mode: 'legacy', maxRounds: 10 }), pythonModuleMissing('mcp')],
      ['fastmcp', pythonClient({ client: 'fastmcp', mode: 'auto', maxRounds: 10 }), pythonModuleMissing('fastmcp')],
      ['go', goClient(go), 'skipped' in go ? go.skipped : undefined],
      ['rust', rustClient(rust), 'skipped' in rust ? rust.skipped : undefined],
    ] as const
  ).filter(([, , missing]) => missing === undefined);
  const clients = await Promise.all(present.map(async ([name, connect]) => ({ name, client: await connect(mcpUrl) })));
  const calls = clients.map(({ name, client }) => {
    const order = `${prefix}-${name}`;
    return { name, order, client, observed: client.call('refund_order', refund(order).arguments) };
  });
  return {
    calls,
    /** What each call got, by client; a pending result is awaited (`await_answer`) to its outcome. */
    async outcomes(of: ReadonlyArray<(typeof calls)[number]> = calls): Promise<Record<string, Observation>> {
      const settled = async ({ client, observed }: (typeof calls)[number]) => {
        let current = await observed;
        for (let handle = pendingHandleIn(current); handle; handle = pendingHandleIn(current))
          current = await client.call('await_answer', { handle });
        return current;
      };
      return Object.fromEntries(await Promise.all(of.map(async (c) => [c.name, await settled(c)])));
    },
    async close() {
      await Promise.allSettled(clients.map(({ client }) => client.close()));
    },
  };
}
const refundedResult = (order: string): Observation => ({ kind: 'result', text: refunded(order), isError: false });

beforeAll(async () => {
  mkdirSync(moduleDir, { recursive: true });
  // The user's module: the demo set, served as a module so that saving it restarts the service.
  writeFileSync(
    moduleFile,
    `export { demoHandlers as handlers } from ${JSON.stringify(path.join(projectRoot(), 'built-in-handlers/demo'))};\n`,
  );
  ports.api = await freePort();
  ports.temporal = await freePort();
  ports.ui = await freePort();
  origin = `http://127.0.0.1:${ports.api}`;
  mcpUrl = `${origin}/mcp`;
  dev = await startDev();
}, 240_000);

afterAll(async () => {
  if (dev && dev.process.exitCode === null) {
    ctrlC(dev);
    await Promise.race([dev.exited, sleep(30_000)]);
    try {
      process.kill(-dev.process.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(work, { recursive: true, force: true });
  for (const program of [go, rust]) if ('remove' in program) program.remove();
}, 60_000);

describe('durable-mcp dev restarted under calls waiting on a person', () => {
  it('restarts the service on save under every client, which each get their result', async () => {
    const run = dev!;
    const clients = await threeCalls(['R-1', 'R-2', 'R-3']);
    const programs = await programCalls('RP');
    const rita = await approver();
    const orders = ['R-1', 'R-2', 'R-3', ...programs.calls.map((c) => c.order)];
    const ids = await Promise.all(orders.map((order) => questionAbout(rita, order)));
    // Held on their questions: the 2026-07-28 leg at the API, the others on their calls' streams.
    await sleep(500);

    const drained = lines(run, 'API draining');
    const reloaded = lines(run, 'reloaded: serving the changed handlers');
    const now = new Date();
    utimesSync(moduleFile, now, now); // saved
    await until('the old service to drain', async () => lines(run, 'API draining') > drained || undefined);
    // While the service restarts, the port takes connections: they wait for it.
    expect(await accepts(ports.api)).toBe(true);
    const probe = fetch(`${origin}/healthz`);
    await until(
      'the service to come back',
      async () => lines(run, 'reloaded: serving the changed handlers') > reloaded || undefined,
      120_000,
    );
    expect((await probe).status).toBe(200);

    for (const id of ids) await approve(rita, id);
    expect(await clients.calls.modern).toEqual({ text: refunded('R-1') });
    expect(await clients.calls.negotiating).toEqual({ text: refunded('R-2') });
    expect(await clients.calls.legacy).toEqual({ text: refunded('R-3') });
    expect(await programs.outcomes()).toEqual(
      Object.fromEntries(programs.calls.map((c) => [c.name, refundedResult(c.order)])),
    );
    await programs.close();
    expect(clients.negotiatedVersion()).toBe('2025-11-25');
    // The streams ended with a reconnect hint and were resumed: no client saw a failed reconnect.
    expect([...clients.errors.negotiating, ...clients.errors.legacy].map((e) => e.message)).not.toContainEqual(
      expect.stringMatching(/Maximum reconnection attempts|Failed to reconnect/),
    );
    await clients.close();
  }, 240_000);

  it('stops in order on Ctrl-C and starts again on the same ports; what each client gets, and what coming back gives', async () => {
    const run = dev!;
    const clients = await threeCalls(['S-1', 'S-2', 'S-3']);
    const manual = await manualCaller('S-4');
    const patient = await patientLegacyCaller('S-5');
    const programs = await programCalls('SP');
    const rita = await approver();
    const held = manual.leg(); // held at the API on the question
    const orders = ['S-1', 'S-2', 'S-3', 'S-4', 'S-5', ...programs.calls.map((c) => c.order)];
    const ids = await Promise.all(orders.map((order) => questionAbout(rita, order)));
    await sleep(500);

    ctrlC(run);
    expect(await run.exited).toBe(0);
    // In order: the service drained and stopped before Postgres and Temporal, then the port went.
    // The last time each step was logged (lines of two processes share the output, so by their time).
    const loggedAt = (msg: string) =>
      run
        .output()
        .split('\n')
        .filter((line) => line.includes(`"msg":"${msg}"`))
        .map((line) => Date.parse((JSON.parse(line) as { time: string }).time))
        .at(-1) ?? Number.NaN;
    const steps = [
      'stopping: the service drains, then Postgres and Temporal stop',
      'API draining',
      'service stopped',
      'stopped',
    ];
    const times = steps.map(loggedAt);
    expect(times.every((time, i) => i === 0 || time >= times[i - 1]!)).toBe(true);
    expect(await accepts(ports.api)).toBe(false);
    expect(await accepts(ports.temporal)).toBe(false);

    // Nothing serves now: a 2026-07-28 client comes back at once (its held leg answered with its
    // state-only result) to a refused connection, and its call fails. A 2025-era client's stream
    // ended with a reconnect hint; it retries twice, is refused, and gives up on the stream.
    expect(await clients.calls.modern).toEqual({ error: expect.stringMatching(/fetch failed/) });
    // On the manual path, the held leg's state-only result reaches the caller, whose requestState stays valid.
    expect(await held).toEqual(
      expect.objectContaining({ resultType: 'input_required', requestState: expect.any(String) }),
    );
    expect(Object.keys((await held).inputRequests ?? {})).toEqual([]); // state only
    await until(
      'the 1.x client to give up its stream',
      async () => clients.errors.legacy.some((e) => /Maximum reconnection attempts/.test(e.message)) || undefined,
      20_000,
    );

    // Started again on the same data folder: the same ports, the exchanges still waiting.
    dev = await startDev();
    expect(dev.output()).toContain(`MCP endpoint     ${mcpUrl}`);
    expect(dev.output()).toContain(`Temporal         127.0.0.1:${ports.temporal}`);
    // The clients run as programs failed their calls when the stack stopped, each saying so
    // (but the Rust SDK's, whose stream retries on: below); the same calls again, from new
    // connections (for the legacy one, a new session), join the exchanges still waiting.
    const failures: Record<string, RegExp> = {
      mcp: /^Connection closed$/,
      'mcp-legacy': /reconnection attempts were exhausted/,
      fastmcp: /^Connection closed$/,
      go: /connection refused/,
    };
    const failing = programs.calls.filter((c) => c.name !== 'rust');
    expect(await programs.outcomes(failing)).toEqual(
      Object.fromEntries(
        failing.map((c) => [
          c.name,
          expect.objectContaining({ kind: 'error', message: expect.stringMatching(failures[c.name]!) }),
        ]),
      ),
    );
    const programsAgain = await programCalls('SP');
    await sleep(500);
    const again = await approver();
    for (const id of ids) await approve(again, id);
    expect(await programsAgain.outcomes()).toEqual(
      Object.fromEntries(programsAgain.calls.map((c) => [c.name, refundedResult(c.order)])),
    );
    // Nobody was asked twice: no question about these orders is left in the inbox.
    const inbox = await (await again.request(`${origin}/answers`)).text();
    for (const c of programsAgain.calls) expect(inbox).not.toContain(`order ${c.order} `);
    // The Rust SDK's client retried its call's stream until the stack was back, resumed it with
    // Last-Event-ID, and got its refund on its own.
    const survivors = programs.calls.filter((c) => c.name === 'rust');
    expect(await programs.outcomes(survivors)).toEqual(
      Object.fromEntries(survivors.map((c) => [c.name, refundedResult(c.order)])),
    );

    // The 2.x client on 2025-11-25 did the same with both its streams: no result for either call.
    expect(clients.errors.negotiating.map((e) => e.message)).toContain('Maximum reconnection attempts (2) exceeded.');
    // A 1.x client told to retry its stream for longer than a restart (every 0.5 s, as the
    // server's retry field says) resumes it with Last-Event-ID once the stack is back, and gets its refund.
    expect(await patient.call).toEqual({ text: refunded('S-5') });
    // The manual caller comes back with the requestState it kept and gets its refund.
    expect(await manual.leg()).toMatchObject({ content: [{ type: 'text', text: refunded('S-4') }] });
    await Promise.allSettled([
      clients.close(),
      manual.client.close(),
      patient.client.close(),
      programs.close(),
      programsAgain.close(),
    ]);
  }, 300_000);
});
