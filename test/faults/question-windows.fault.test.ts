/**
 * The window a question's answer opens: the answer API (or page) claims the answer in Postgres,
 * then signals it. Here the API's connection to Temporal is held shut after the claim and the API
 * is SIGKILLed: the answerer got no reply, yet the claimed answer is signalled by the replica that
 * lives (its re-signaller, QUESTION_RESIGNAL_AFTER_MS), applied once, and the caller, who waited on
 * the other replica, gets the result; the decision is one evidence entry, and the evidence log
 * verifies whole (no gap, no duplicate). Real tokens from a real authorization server.
 */
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONWebKeySet } from 'jose';
import { verifyEvidenceExport } from '../../lib/evidence/chain-verification';
import { EVIDENCE_JWKS_PATH, exportText } from '../../lib/evidence/evidence-export';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { startAuthorizationServer, type AuthorizationServer, type TestClient } from '../support/authorization-server';
import { LOCAL_WINDOW_MS, waitForWindow } from './support/fault-window';
import { NO_REPLY, withGatedApi } from './support/gated-api';
import { faultSuite, pausedWorker, scenario } from './support/scenario';
import { answerBeforeResult, answersAndResults, historyCounts } from './support/temporal-probe';
import { waitFor } from './support/wait-for';
import { listedQuestion, postAnswer } from './support/question-answers';
import { answerApiResourceOf } from '../../lib/auth/auth-config';

/** The audience tokens carry: the service checks it, not the port each API process happens to listen on. */
const RESOURCE = 'http://127.0.0.1:3999/mcp';
const ANSWERS_RESOURCE = answerApiResourceOf(RESOURCE);
const client = (name: string, scope: string): TestClient => ({
  client_id: name,
  client_secret: `${name}-secret`,
  scope,
});
const ALICE = client('alice', 'mcp');
const DANA = client('dana', 'mcp refunds:approve');

const apiEnv: Record<string, string> = {};
let as: AuthorizationServer | undefined;
beforeAll(async () => {
  as = await startAuthorizationServer({
    clients: [ALICE, DANA],
    resources: { [RESOURCE]: 'mcp refunds:approve', [ANSWERS_RESOURCE]: 'refunds:approve' },
  });
  Object.assign(apiEnv, {
    AUTH_MODE: 'oauth',
    MCP_RESOURCE_URL: RESOURCE,
    OAUTH_ISSUERS: as.issuer,
    OAUTH_REQUIRED_SCOPES: 'mcp',
    QUESTION_RESIGNAL_AFTER_MS: '1000',
    QUESTION_HOLD_MS: '20000',
    // The answer page on (its issuer is only asked at a sign-in): a question for the caller goes to its client in URL mode.
    ANSWER_OIDC_ISSUER: as.issuer,
    ANSWER_OIDC_CLIENT_ID: 'answer-page',
    ANSWER_OIDC_CLIENT_SECRET: 'answer-page-secret-for-the-fault-suite',
    ANSWER_PUBLIC_URL: 'http://127.0.0.1:3999',
    ANSWER_SESSION_KEYS: `answers1:${randomBytes(32).toString('base64')}`,
  });
}, 60_000);
afterAll(async () => as?.stop());
const suite = faultSuite({ sharedWorkflowBundle: true, apiEnv });

const bearer = async (who: TestClient, scope = 'mcp') =>
  `Bearer ${await as!.token(who, { resource: RESOURCE, scope })}`;
/** The approver's own token for the answer API, a resource of its own: a service answering as itself. */
const approverBearer = async () =>
  `Bearer ${await as!.token(DANA, { resource: ANSWERS_RESOURCE, scope: 'refunds:approve' })}`;

async function callRefund(url: string, order: string): Promise<string> {
  const caller = new Client(
    { name: 'desk', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await bearer(ALICE);
  await caller.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } }),
  );
  try {
    // Come-backs go on until the approver's answer lands (each leg held up to QUESTION_HOLD_MS).
    const result = await caller.callTool(
      { name: 'refund_order', arguments: { order, amount: 12, reason: 'fault window' } },
      { timeout: 60_000, maxTotalTimeout: 120_000 },
    );
    return (result as { content: Array<{ text: string }> }).content[0]!.text;
  } finally {
    await caller.close();
  }
}

const approverHeaders = async () => ({
  authorization: await approverBearer(),
  'content-type': 'application/json',
});

scenario(
  'local-ask window: (question) local round 1 recorded its question, the approver answered through the API, then the worker SIGKILLed before the workflow task completed: the answer is kept and applied once',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    const paused = await pausedWorker(stack, 'activity=runRound,round=1,outcome=ask,target=refund_order');
    const result = callRefund(stack.apiUrl(1), 'W-1');
    const window = await waitForWindow(paused);
    const workflowId = workflowIdFor(window.exchangeId);
    const headers = await approverHeaders();
    // The question is in Postgres (recorded with its ask) while the workflow task that ran it is held open.
    const question = await listedQuestion(stack.apiUrl(0), headers, 'W-1');
    const taken = await postAnswer(stack.apiUrl(0), headers, question, { action: 'accept', content: {} });
    await waitFor('the answer signalled', async () => (await claimed(question.id))[0]?.signalled === true);
    await stack.stopWorker('SIGKILL');
    const killedAfterMs = Date.now() - window.openedAt;
    const atKill = await historyCounts(stack, workflowId);
    await stack.startWorker();

    const text = await result;
    const rounds = await stack.query<{ round: number }>(
      'SELECT round FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
      [window.exchangeId],
    );
    expect({
      taken,
      window,
      inTime: killedAfterMs < LOCAL_WINDOW_MS,
      resultsAtKill: atKill.localResults,
      answerBeforeItsRound: answerBeforeResult(await answersAndResults(stack, workflowId), 1, 1),
      text,
      rounds: rounds.map((row) => row.round),
    }).toEqual({
      taken: 200,
      window: expect.objectContaining({ round: 1, local: true, outcome: 'ask' }),
      inTime: true,
      resultsAtKill: 0,
      answerBeforeItsRound: true,
      text: 'Refunded 12 on order W-1, approved by dana.',
      rounds: [1, 2],
    });
  },
);

scenario(
  'claim-to-signal window: (question) the answer API claimed an answer in Postgres, then SIGKILLed before Temporal took its signal (its connection to Temporal held shut): another replica signals it, once',
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    await withGatedApi(stack, async (api) => {
      // The caller waits on API 1, which reaches Temporal directly.
      const result = callRefund(stack.apiUrl(1), 'F-1');
      const dana = { authorization: await approverBearer(), 'content-type': 'application/json' };
      const question = await listedQuestion(stack.apiUrl(1), dana, 'F-1');
      const workflowId = workflowIdFor(question.exchangeId);

      const { reply, atKill } = await api.claimThenKill({
        workflowId,
        send: () => postAnswer(stack.apiUrl(0), dana, question, { action: 'accept', content: { note: 'ok' } }),
        claimed: ['the answer claimed', async () => (await claimed(question.id)).length === 1],
      });

      const text = await result;
      const final = await historyCounts(stack, workflowId);
      const rows = await claimed(question.id);
      const evidence = await evidenceLog(stack.apiUrl(1));
      const rounds = await stack.query<{ round: number }>(
        'SELECT round FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
        [question.exchangeId],
      );
      expect({
        reply,
        signalsAtKill: atKill.questionAnswerSignals,
        text,
        signalled: rows.map((row) => row.signalled),
        rounds: rounds.map((row) => row.round),
        signalsAtEnd: final.questionAnswerSignals >= 1,
        // One evidence entry for the one decision, committed with its claim, whatever the kill and
        // the re-signal; the whole log verifies against the keys the living replica serves.
        evidence: {
          verified: evidence.verified,
          startsAtOne: evidence.startsAtOne,
          decisions: evidence.decisionsOf(question.exchangeId),
        },
      }).toEqual({
        reply: NO_REPLY,
        signalsAtKill: 0,
        text: 'Refunded 12 on order F-1, approved by dana. Note: ok',
        signalled: [true],
        rounds: [1, 2],
        signalsAtEnd: true,
        evidence: {
          verified: { ok: true, problem: undefined },
          startsAtOne: true,
          decisions: [{ answerId: rows[0]!.id, taken: true, exchangeSeq: 1 }],
        },
      });
    });
  },
);

scenario(
  "claim-to-signal window: (question, URL mode) the caller's client declined the URL-mode question addressed to it; API 0 claimed the decline, then SIGKILLed before Temporal took its signal: another replica signals it, once",
  () => suite.stack,
  suite.run,
  async () => {
    const { stack } = suite;
    await withGatedApi(stack, async (api) => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const sent: Array<{ mode?: string; url?: string }> = [];
      const caller = new Client(
        { name: 'desk', version: '1.0.0' },
        { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      // The decline waits until the gate is held, so the retry that carries it is the one that claims.
      caller.setRequestHandler('elicitation/create', async (request) => {
        sent.push(request.params as { mode?: string; url?: string });
        await released;
        return { action: 'decline' } as never;
      });
      const authorization = await bearer(ALICE);
      await caller.connect(
        new StreamableHTTPClientTransport(new URL(stack.apiUrl(0)), { requestInit: { headers: { authorization } } }),
      );
      const call = caller.callTool(
        { name: 'confirm_transfer', arguments: { account: 'DE0012345678', amount: 5 } },
        { timeout: 60_000 },
      );
      const url = await waitFor('the URL elicitation', async () => sent[0]?.url);
      const questionId = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
      const exchangeId = questionId.split('.')[0]!;
      const workflowId = workflowIdFor(exchangeId);

      const { reply, atKill } = await api.claimThenKill({
        workflowId,
        send: async () => {
          release();
          return call;
        },
        claimed: ["the caller's decline claimed", async () => (await claimed(questionId)).length === 1],
      });
      await caller.close().catch(() => undefined);

      const ended = await waitFor('the round after the question', async () => {
        const rows = await stack.query<{ outcome: { result?: { content: Array<{ text: string }> } } }>(
          'SELECT outcome FROM exchange_rounds WHERE exchange_id = $1 AND round = 2',
          [exchangeId],
        );
        return rows[0];
      });
      const final = await historyCounts(stack, workflowId);
      const via = await stack.query<{ via: string }>(
        'SELECT via FROM question_answers WHERE question_id = $1 AND taken',
        [questionId],
      );
      expect({
        mode: sent[0]?.mode,
        reply,
        signalsAtKill: atKill.questionAnswerSignals,
        text: ended.outcome.result?.content[0]?.text,
        via: via.map((row) => row.via),
        signalled: (await claimed(questionId)).map((row) => row.signalled),
        signalsAtEnd: final.questionAnswerSignals >= 1,
      }).toEqual({
        mode: 'url',
        reply: NO_REPLY,
        signalsAtKill: 0,
        text: 'Transfer not made: decline (via client).',
        via: ['client'],
        signalled: [true],
        signalsAtEnd: true,
      });
    });
  },
);

/** The question's taken answers, and whether each one's signal was confirmed. */
async function claimed(questionId: string): Promise<Array<{ id: string; signalled: boolean }>> {
  return suite.stack.query<{ id: string; signalled: boolean }>(
    'SELECT id, signalled_at IS NOT NULL AS signalled FROM question_answers WHERE question_id = $1 AND taken',
    [questionId],
  );
}

/**
 * The whole evidence log as Postgres holds it, verified as an export of it against the JWKS the API
 * at `url` serves: whether it verifies (seq from 1, every signature and link), and each exchange's
 * decisions in it.
 */
async function evidenceLog(url: string) {
  const rows = await suite.stack.query<{
    seq: string;
    prev: string | null;
    exchange_id: string;
    exchange_seq: number;
    answer_id: string;
    taken: boolean;
    hash: string;
    jws: string;
  }>('SELECT seq, prev, exchange_id, exchange_seq, answer_id, taken, hash, jws FROM evidence_entries ORDER BY seq');
  const entries = rows.map((r) => ({
    seq: Number(r.seq),
    prev: r.prev,
    exchangeSeq: r.exchange_seq,
    hash: r.hash,
    jws: r.jws,
  }));
  const jwks = (await (await fetch(url.replace(/\/mcp$/, EVIDENCE_JWKS_PATH))).json()) as JSONWebKeySet;
  const scope = { from: new Date(0).toISOString(), to: new Date().toISOString() };
  const result = await verifyEvidenceExport(exportText(scope, entries, { exportedAt: new Date() }), jwks);
  return {
    verified: { ok: result.ok, problem: result.ok ? undefined : `line ${result.line}: ${result.problem}` },
    startsAtOne: entries[0]?.seq === 1 && entries[0].prev === null,
    decisionsOf: (exchangeId: string) =>
      rows
        .filter((r) => r.exchange_id === exchangeId)
        .map((r) => ({ answerId: r.answer_id, taken: r.taken, exchangeSeq: r.exchange_seq })),
  };
}
