/**
 * The scenarios of the compatibility table, run through one client under test against the
 * file's service, each test asserting that what it observed is its cell of compatibility.ts.
 * The service runs as `durable-mcp dev` does (no authorization, the answer page's development
 * sign-in, where the `approve` tool's approver answers), with the holds and the pending-result
 * leg of STAND_INS, behind a recording proxy that shows what the client did on the wire.
 */
import { randomUUID } from 'node:crypto';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { JOINED_IDENTICAL_CALLS, type TestService } from '../support/test-service';
import { signInApprover, type Approver } from './approver';
import { clientTools } from './client-tools';
import { CLIENTS, EXPECTED, SCENARIOS, STAND_INS, type ClientId, type ScenarioId } from './compatibility';
import { PEERS, type Connect, type ConnectedClient } from './connected-client';
import { callOutcome, pendingHandleIn, pendingOutcome, type Observation } from './observation';
import { startRecordingProxy, type RecordedPost, type RecordingProxy } from './recording-proxy';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CompatibilityService {
  service: TestService;
  proxy: RecordingProxy;
  approver: Approver;
}

/** Whether `promise` settles within `ms` (its timer cleared either way, so no test is left waiting on it). */
async function endsWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

/** The file's service, its proxy and its approver: started before the file's tests, closed after them. */
export function useCompatibilityService(): () => CompatibilityService {
  let started: CompatibilityService | undefined;
  beforeAll(async () => {
    const hold = String(STAND_INS.holdMs);
    const { service, origin } = await startDevAnsweringService(clientTools, {
      HTTP_WAIT_MS: hold,
      QUESTION_HOLD_MS: hold,
      PENDING_RESULT_AT_LEG: String(STAND_INS.atLeg),
      LEGACY_PENDING_AFTER_MS: String(STAND_INS.legacyPendingAfterMs),
      ...JOINED_IDENTICAL_CALLS, // the service's default
    });
    const proxy = await startRecordingProxy(service.url);
    started = { service, proxy, approver: await signInApprover(origin, service.pool) };
  }, 120_000);
  afterAll(async () => {
    await started?.proxy.close();
    await started?.service.close();
  });
  return () => {
    if (!started) throw new Error('the compatibility service is not started yet');
    return started;
  };
}

/** The tool each simple scenario calls, and the text of its expected result. */
const SIMPLE: Partial<Record<ScenarioId, { tool: string; expected: string }>> = {
  plain: { tool: 'ping', expected: 'pong' },
  elicitation: { tool: 'ask_name', expected: `accept: ${PEERS.name}` },
  sampling: { tool: 'summarize', expected: `sampled: ${PEERS.sampled}` },
  roots: { tool: 'list_roots', expected: `roots: ${PEERS.root.uri}` },
  decline: { tool: 'confirm', expected: 'decline' },
};

const approved = (order: string) => `accept: ${order}`;

/** What the client did after each state-only result it was sent on the calls since `since`. */
function stateOnlyBehaviour(posts: RecordedPost[], since: number): string {
  const calls = posts.filter((p) => p.at >= since && p.method === 'tools/call');
  const stateOnly = calls.filter((p) => {
    const requests = p.result?.inputRequests as Record<string, unknown> | undefined;
    return typeof p.result?.requestState === 'string' && (!requests || Object.keys(requests).length === 0);
  });
  if (stateOnly.length === 0) return 'none sent';
  const echoed = stateOnly.every((sent) =>
    calls.some((p) => p.at > sent.at && p.requestState === sent.result!.requestState && !p.hasInputResponses),
  );
  return echoed ? 'comes back with its requestState' : 'does not come back';
}

/** Registers the tests of one client: its era, then one test per scenario. */
export function describeClient(
  get: () => CompatibilityService,
  id: ClientId,
  connect: Connect,
  unavailable?: string,
): void {
  const row = CLIENTS[id];
  describe(row.label, () => {
    if (unavailable) {
      it.skip(`skipped: ${unavailable}`, () => undefined);
      return;
    }
    let client: ConnectedClient;
    let connectedFrom = 0;
    beforeAll(async () => {
      connectedFrom = Date.now();
      client = await connect(get().proxy.url);
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });
    const order = (scenario: string) => `${id}-${scenario}-${randomUUID().slice(0, 8)}`;

    /**
     * A call's outcome; when the client threw, with what became of the call's question just after
     * (a client that cancels on its timeout ends it; one that only reports a pending result leaves it waiting).
     */
    async function withQuestionFate(observation: Observation, expected: string, on: string): Promise<string> {
      const outcome = callOutcome(observation, expected);
      if (observation.kind !== 'error') return outcome;
      // A cancel takes a moment to reach the question: give it up to 3 s before saying it still waits.
      let status: string | undefined;
      for (const deadline = Date.now() + 3_000; Date.now() < deadline; await sleep(100)) {
        status = await get().approver.statusOf(on);
        if (status !== 'waiting') break;
      }
      return `${outcome}; question ${status ?? 'never asked'}`;
    }

    // Past 15 minutes, the pending result and await_answer are one call's story: run it once.
    let longWait:
      Promise<{ call: Observation; cell: string; tools: string[]; awaited?: Observation; order: string }> | undefined;
    const runLongWait = () =>
      (longWait ??= (async () => {
        const { approver } = get();
        const on = order('long');
        const tools = await client.listTools();
        const call = client.call('approve', { order: on });
        await approver.questionOn(on);
        const ended = await endsWithin(call, STAND_INS.past15minMs);
        if (!ended) await approver.accept(on);
        const observed = await call;
        const cell = await withQuestionFate(observed, approved(on), on);
        const handle = pendingHandleIn(observed);
        if (!handle || !tools.includes('await_answer')) return { call: observed, cell, tools, order: on };
        const awaiting = client.call('await_answer', { handle });
        await sleep(300);
        await approver.accept(on);
        return { call: observed, cell, tools, awaited: await awaiting, order: on };
      })());

    it(`calls at ${row.era}`, async () => {
      const since = Date.now();
      await client.call('ping');
      const call = get().proxy.posts.find((p) => p.at >= since && p.method === 'tools/call');
      expect(call?.protocolVersion).toBe(row.era);
    });

    const observe: Record<ScenarioId, () => Promise<string>> = {
      async tasks() {
        await client.call('ping');
        const posts = get().proxy.posts.filter((p) => p.at >= connectedFrom);
        if (posts.some((p) => p.declaresTasks)) return 'declared';
        return posts.some((p) => p.namesTasksAtInitialize)
          ? "not declared (named in initialize's extensions)"
          : 'not declared';
      },
      plain: () => simple('plain'),
      elicitation: () => simple('elicitation'),
      sampling: () => simple('sampling'),
      roots: () => simple('roots'),
      decline: () => simple('decline'),
      async stateOnly() {
        const { approver, proxy } = get();
        const since = Date.now();
        const on = order('state');
        const call = client.call('approve', { order: on });
        await approver.questionOn(on);
        // Past one hold, well before a session's call would be answered pending.
        await sleep(STAND_INS.holdMs * 1.2);
        await approver.accept(on);
        const observed = await call;
        return `${stateOnlyBehaviour(proxy.posts, since)}; ${await withQuestionFate(observed, approved(on), on)}`;
      },
      async past60s() {
        const { approver } = get();
        const on = order('60s');
        const call = client.call('approve', { order: on });
        await approver.questionOn(on);
        await sleep(STAND_INS.past60sMs);
        await approver.accept(on);
        return withQuestionFate(await call, approved(on), on);
      },
      async past15min() {
        return (await runLongWait()).cell;
      },
      async pendingResult() {
        return pendingOutcome((await runLongWait()).call);
      },
      async awaitAnswer() {
        const { tools, awaited, order: on } = await runLongWait();
        if (!tools.includes('await_answer')) return 'not listed';
        if (!awaited) return 'no handle to await';
        return callOutcome(awaited, approved(on));
      },
    };

    async function simple(scenario: ScenarioId): Promise<string> {
      const { tool, expected } = SIMPLE[scenario]!;
      return callOutcome(await client.call(tool), expected);
    }

    for (const scenario of Object.keys(SCENARIOS) as ScenarioId[]) {
      it(`${SCENARIOS[scenario].title}: ${EXPECTED[id][scenario]}`, async () => {
        expect(await observe[scenario]()).toBe(EXPECTED[id][scenario]);
      }, 60_000);
    }
  });
}
