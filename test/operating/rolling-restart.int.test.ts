/**
 * A rolling restart of the production topology under waiting clients: two API replicas (each with
 * its worker) on one task queue, one Postgres and one Temporal, behind a load balancer
 * (test/support/rotation-proxy.ts). Each official SDK's client of the compatibility table (the
 * agent frameworks' and the Inspector's are left out) calls `approve`,
 * whose question waits on a person; then each replica in turn is taken out of rotation, stopped as
 * SIGTERM stops it (the API drains first) and replaced by a new one; then the person answers.
 * Every client gets the call's own result (or the pending result, whose `await_answer` gets it),
 * and each question is answered once.
 */
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { startTestService, type TestService } from '../support/test-service';
import { startRotationProxy, type RotationProxy } from '../support/rotation-proxy';
import { signInApprover, type Approver } from '../clients/approver';
import { clientTools } from '../clients/client-tools';
import { CLIENTS, type ClientId } from '../clients/compatibility';
import type { Connect, ConnectedClient } from '../clients/connected-client';
import { callOutcome, pendingHandleIn, type Observation } from '../clients/observation';
import { pythonClient, pythonModuleMissing } from '../clients/python-client';
import { typescript1, typescript2 } from '../clients/typescript-clients';
import { goClient, goClientProgram } from '../clients/go-client';
import { rustClient, rustClientProgram } from '../clients/rust-client';

/** Each client's own defaults, but for the TypeScript clients' 60 s timeout, which would end the test's calls too late to matter. */
const TS = { timeoutMs: 60_000, maxRounds: 10 };
const go = goClientProgram();
const rust = rustClientProgram();
afterAll(() => {
  for (const program of [go, rust]) if ('remove' in program) program.remove();
});
const UNDER_TEST: Array<{ id: ClientId; connect: Connect; missing?: string }> = [
  { id: 'go', connect: goClient(go), ...('skipped' in go ? { missing: go.skipped } : {}) },
  { id: 'rust', connect: rustClient(rust), ...('skipped' in rust ? { missing: rust.skipped } : {}) },
  { id: 'typescript-2-pinned', connect: typescript2(true, TS) },
  { id: 'typescript-2-negotiating', connect: typescript2(false, TS) },
  { id: 'typescript-1', connect: typescript1(TS) },
  {
    id: 'python-mcp',
    connect: pythonClient({ client: 'mcp', mode: 'auto', maxRounds: 10 }),
    missing: pythonModuleMissing('mcp'),
  },
  {
    id: 'python-mcp-legacy',
    connect: pythonClient({ client: 'mcp', mode: 'legacy', maxRounds: 10 }),
    missing: pythonModuleMissing('mcp'),
  },
  {
    id: 'fastmcp',
    connect: pythonClient({ client: 'fastmcp', mode: 'auto', maxRounds: 10 }),
    missing: pythonModuleMissing('fastmcp'),
  },
];

const queue = `rolling-${randomUUID()}`;
let proxy: RotationProxy;
const replicas: TestService[] = [];

/** One replica: API and worker, as `durable-mcp dev` serves answering (no authorization, the development sign-in). */
const startReplica = () =>
  startTestService(
    {
      TEMPORAL_TASK_QUEUE: queue,
      AUTH_MODE: 'off',
      ANSWER_DEV_SIGN_IN: 'true',
      ANSWER_PUBLIC_URL: proxy.origin,
      // Held legs come back every 2 s, so each client meets the restart mid-wait on every era.
      HTTP_WAIT_MS: '2000',
      QUESTION_HOLD_MS: '2000',
      // A session's call is answered pending well before the TypeScript clients' 60 s, with room
      // for two replica restarts on a loaded machine (the default, 50 s, leaves 10).
      LEGACY_PENDING_AFTER_MS: '30000',
    },
    { handlers: clientTools },
  );
const originOf = (service: TestService) => new URL(service.url).origin;
const inRotation = () => proxy.rotate(replicas.map(originOf));

beforeAll(async () => {
  proxy = await startRotationProxy();
  replicas.push(await startReplica(), await startReplica());
  inRotation();
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await proxy?.close();
});

/** The call's own outcome: through `await_answer` while it is pending. */
async function outcome(client: ConnectedClient, observed: Observation, order: string): Promise<string> {
  let current = observed;
  for (let handle = pendingHandleIn(current); handle; handle = pendingHandleIn(current))
    current = await client.call('await_answer', { handle });
  return callOutcome(current, `accept: ${order}`);
}

it('gives every client its own result across a rolling restart of both replicas, each question answered once', async () => {
  for (const { id, missing } of UNDER_TEST)
    if (missing !== undefined)
      console.warn(`rolling-restart.int.test.ts: ${CLIENTS[id].label} is left out: ${missing}`);
  const present = UNDER_TEST.filter((client) => client.missing === undefined);
  const mcpUrl = `${proxy.origin}/mcp`;
  const clients = await Promise.all(present.map(async (c) => ({ ...c, client: await c.connect(mcpUrl) })));
  // Its own pool: each replica's closes with it.
  const pool = new Pool({ connectionString: replicas[0]!.config.database.url, max: 2 });
  const approver: Approver = await signInApprover(proxy.origin, pool);
  try {
    const calls = clients.map((c) => {
      const order = `${c.id}-${randomUUID().slice(0, 8)}`;
      return { ...c, order, observed: c.client.call('approve', { order }) };
    });
    await Promise.all(calls.map((c) => approver.questionOn(c.order)));

    for (const at of [0, 1]) {
      const leaving = replicas[at]!;
      proxy.rotate(replicas.filter((r) => r !== leaving).map(originOf));
      await leaving.close(); // as SIGTERM: the API drains, then the worker stops
      replicas[at] = await startReplica();
      inRotation();
    }

    for (const c of calls) expect(await approver.accept(c.order)).toBe(true);
    const outcomes = await Promise.all(
      calls.map(async (c) => [CLIENTS[c.id].label, await outcome(c.client, await c.observed, c.order)]),
    );
    expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(calls.map((c) => [CLIENTS[c.id].label, 'result'])));
    // One question per call, answered: no client started its call again.
    const { rows } = await pool.query<{ message: string; status: string }>(
      'SELECT message, status FROM questions WHERE message = ANY($1) ORDER BY message',
      [calls.map((c) => `Approve ${c.order}?`)],
    );
    expect(rows.map((r) => r.status)).toEqual(calls.map(() => 'answered'));
  } finally {
    await Promise.all(clients.map((c) => c.client.close()));
    await pool.end();
  }
}, 240_000);
