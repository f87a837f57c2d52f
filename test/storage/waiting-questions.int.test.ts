/**
 * The bounds of questions addressed to someone else, against the real Postgres: a caller's waiting
 * questions stay within MAX_WAITING_QUESTIONS_PER_PRINCIPAL however many of its asks are recorded
 * at once (an ask without room is recorded as the error that ends its exchange, and none of its
 * questions is written); an inbox is listed round robin by caller, with how many more wait; and the
 * re-signaller's bookkeeping, where one answer whose signal fails holds up no other and is not
 * tried again before its time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { createEvidenceLog } from '../../lib/db/evidence-log-pg';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { createQuestionStorePg } from '../../lib/db/question-store-pg';
import { ed25519KeyOf } from '../../lib/evidence/signing-keys';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import type { ExchangeInput, RoundOutcome } from '../../lib/exchange/types';
import { createLogger } from '../../lib/log';
import { answererKey } from '../../lib/questions/addressing';
import { SERVER_BUSY } from '../../lib/protocol/json-rpc-codes';
import { startAnswerResignal } from '../../services/api/src/answers/answer-resignal';
import { readStackInfo } from '../support/stack-info';

const log = createLogger('test', 'silent');
const pool = createPool(readStackInfo().databaseUrl, 10, log);
const BUDGET = 3;
const bounded = createExchangeStorePg(pool, { maxWaitingQuestionsPerPrincipal: BUDGET });
const unbounded = createExchangeStorePg(pool);
const questions = createQuestionStorePg(pool, createEvidenceLog([ed25519KeyOf('storage-test', randomBytes(32))]));

beforeAll(() => migrate(pool, log));
afterAll(() => pool.end());

const ISSUER = 'https://id.example.com';

function exchangeOf(principal: string): ExchangeInput {
  return {
    exchangeId: randomUUID(),
    era: 'modern',
    request: { method: 'tools/call', target: 'refund', params: { name: 'refund', arguments: { order: 'A-1' } } },
    principal,
    principalDetails: { kind: 'person', subject: principal.split('|')[1] ?? principal, issuer: ISSUER, scopes: [] },
    clientCapabilities: {},
    roundTimeoutMs: 60_000,
    maxRounds: 8,
  };
}

/** An ask of `keys` questions, each addressed to the holders of `scope`. */
function addressedAsk(scope: string, keys = ['approval']): RoundOutcome {
  const request = {
    method: 'elicitation/create',
    params: { message: 'Refund A-1?', requestedSchema: { type: 'object', properties: {} } },
    addressedTo: { anyOf: [{ scope }] },
  };
  return { kind: 'ask', inputRequests: Object.fromEntries(keys.map((key) => [key, request])) };
}

/** Opens `exchange` and records its first round's ask, `deadlineInMs` from now. */
async function ask(store: typeof bounded, exchange: ExchangeInput, outcome: RoundOutcome, deadlineInMs = 60_000) {
  const workflowId = workflowIdFor(exchange.exchangeId);
  await store.createExchange(exchange, workflowId);
  return store.recordRound({
    exchange,
    workflowId,
    round: 1,
    outcome,
    deadlineAt: new Date(Date.now() + deadlineInMs),
  });
}

async function waitingOf(principal: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM questions WHERE caller->>'id' = $1 AND status = 'waiting'`,
    [principal],
  );
  return rows[0]!.n;
}

async function questionsOfExchange(exchangeId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM questions WHERE exchange_id = $1',
    [exchangeId],
  );
  return rows[0]!.n;
}

const newPrincipal = () => `${ISSUER}|caller-${randomUUID()}`;
const newScope = () => `approve:${randomUUID()}`;

describe('MAX_WAITING_QUESTIONS_PER_PRINCIPAL', () => {
  it('holds when many asks of one caller are recorded at once: the rest end their exchanges, writing no question', async () => {
    const principal = newPrincipal();
    const exchanges = Array.from({ length: 8 }, () => exchangeOf(principal));
    const records = await Promise.all(exchanges.map((exchange) => ask(bounded, exchange, addressedAsk(newScope()))));
    const asks = records.filter((r) => r.outcome.kind === 'ask');
    const refused = records.filter((r) => r.outcome.kind === 'error');
    expect(asks).toHaveLength(BUDGET);
    expect(refused).toHaveLength(8 - BUDGET);
    expect(await waitingOf(principal)).toBe(BUDGET);
    for (const record of refused) {
      expect(record.outcome).toEqual({
        kind: 'error',
        error: {
          code: SERVER_BUSY,
          message: expect.stringContaining('MAX_WAITING_QUESTIONS_PER_PRINCIPAL (3)'),
          data: {
            exchangeId: record.exchangeId,
            round: 1,
            budget: 'MAX_WAITING_QUESTIONS_PER_PRINCIPAL',
            limit: BUDGET,
            waiting: BUDGET,
            asked: 1,
          },
        },
      });
      expect(record.deadlineAt).toBeUndefined();
      expect(await questionsOfExchange(record.exchangeId)).toBe(0);
      const { rows } = await pool.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [
        record.exchangeId,
      ]);
      expect(rows[0]!.status).toBe('failed');
    }
  });

  it('counts each question of an ask, and has room again once questions stop waiting', async () => {
    const principal = newPrincipal();
    const first = exchangeOf(principal);
    expect((await ask(bounded, first, addressedAsk(newScope(), ['a', 'b']))).outcome.kind).toBe('ask');
    const second = await ask(bounded, exchangeOf(principal), addressedAsk(newScope(), ['a', 'b']));
    expect(second.outcome).toMatchObject({
      kind: 'error',
      error: { data: { limit: BUDGET, waiting: 2, asked: 2 } },
    });
    // The first exchange ends (a cancel, say): its questions are closed, and no longer count.
    await bounded.recordRound({
      exchange: first,
      workflowId: workflowIdFor(first.exchangeId),
      round: 2,
      outcome: { kind: 'error', error: { code: -32012, message: 'Exchange cancelled by the client' } },
    });
    expect(await waitingOf(principal)).toBe(0);
    expect((await ask(bounded, exchangeOf(principal), addressedAsk(newScope(), ['a', 'b']))).outcome.kind).toBe('ask');
  });

  it('leaves out questions past their deadline, and asks that address nobody else', async () => {
    const principal = newPrincipal();
    for (let i = 0; i < BUDGET; i += 1)
      expect((await ask(bounded, exchangeOf(principal), addressedAsk(newScope()), -1_000)).outcome.kind).toBe('ask');
    const forTheCaller: RoundOutcome = {
      kind: 'ask',
      inputRequests: { name: { method: 'elicitation/create', params: { message: 'Name?' } } },
    };
    expect((await ask(bounded, exchangeOf(principal), forTheCaller)).outcome.kind).toBe('ask');
    expect((await ask(bounded, exchangeOf(principal), addressedAsk(newScope()))).outcome.kind).toBe('ask');
  });

  it('does not count the anonymous caller (AUTH_MODE=off), who is every caller at once', async () => {
    const records = await Promise.all(
      Array.from({ length: BUDGET + 2 }, () => ask(bounded, exchangeOf('anonymous'), addressedAsk(newScope()))),
    );
    expect(records.every((r) => r.outcome.kind === 'ask')).toBe(true);
  });
});

describe('an inbox', () => {
  it("takes every caller's soonest question before anyone's next, and says how many more wait", async () => {
    const scope = newScope();
    const [flood, few, one] = [newPrincipal(), newPrincipal(), newPrincipal()];
    // The flood's questions all have the soonest deadlines: by deadline alone they would fill the list.
    for (let i = 0; i < 6; i += 1) await ask(unbounded, exchangeOf(flood), addressedAsk(scope), 60_000 + i * 1_000);
    for (let i = 0; i < 2; i += 1) await ask(unbounded, exchangeOf(few), addressedAsk(scope), 120_000 + i * 1_000);
    await ask(unbounded, exchangeOf(one), addressedAsk(scope), 180_000);

    const keys = [answererKey({ scope })];
    const listed = await questions.waitingFor(keys, Date.now(), 4);
    expect(listed.questions.map((q) => q.caller.id)).toEqual([flood, few, one, flood]);
    expect(listed.moreWaiting).toBe(5);
    const all = await questions.waitingFor(keys, Date.now(), 100);
    expect(all.questions).toHaveLength(9);
    expect(all.moreWaiting).toBe(0);
    expect(await questions.waitingFor([answererKey({ scope: newScope() })], Date.now(), 4)).toEqual({
      questions: [],
      moreWaiting: 0,
    });
  });
});

describe('the re-signaller, with the store', () => {
  /** A question of a new exchange with an answer claimed a minute ago and never signalled. */
  async function claimedAnswer() {
    const exchange = exchangeOf(newPrincipal());
    await ask(unbounded, exchange, addressedAsk(newScope()));
    const [question] = await questions.ofExchange(exchange.exchangeId);
    const claimed = await questions.claim(
      {
        questionId: question!.id,
        by: { id: `${ISSUER}|client:bot`, kind: 'service', subject: 'bot', scopes: [], groups: [] },
        via: 'api',
        response: { action: 'accept', content: {} },
        shownDigest: question!.shownDigest,
        at: Date.now() - 60_000,
      },
      () => ({ taken: true, slot: 0, decided: true }),
      50,
    );
    if (claimed.kind !== 'taken') throw new Error(`not taken: ${claimed.kind}`);
    return { exchangeId: exchange.exchangeId, answerId: claimed.answer.answerId };
  }

  async function signalState(answerId: string) {
    const { rows } = await pool.query<{ signalled: boolean; failures: number; due_in_s: number | null }>(
      `SELECT signalled_at IS NOT NULL AS signalled, signal_failures AS failures,
              extract(epoch FROM signal_retry_at - now())::float AS due_in_s
         FROM question_answers WHERE id = $1`,
      [answerId],
    );
    return rows[0]!;
  }

  it('signals and marks the others when one signal fails, and tries that one again only when it is due', async () => {
    const [good1, bad, good2] = [await claimedAnswer(), await claimedAnswer(), await claimedAnswer()];
    const mine = new Set([good1.exchangeId, bad.exchangeId, good2.exchangeId]);
    let refuse = true;
    const tried: string[] = [];
    const { resignal, stop } = startAnswerResignal(
      {
        questions,
        answering: {
          async deliver(exchangeId, answer) {
            if (!mine.has(exchangeId)) return; // another test's answer: not this test's to mark
            tried.push(exchangeId);
            if (exchangeId === bad.exchangeId && refuse) throw new Error('the workflow refused the payload');
            await questions.markSignalled(answer.answerId);
          },
        },
        log,
      },
      { afterMs: 5_000 },
    );
    stop();

    await resignal();
    expect(tried.sort()).toEqual([...mine].sort());
    expect(await signalState(good1.answerId)).toMatchObject({ signalled: true, failures: 0 });
    expect(await signalState(good2.answerId)).toMatchObject({ signalled: true, failures: 0 });
    const failed = await signalState(bad.answerId);
    expect(failed).toMatchObject({ signalled: false, failures: 1 });
    expect(failed.due_in_s).toBeGreaterThan(3);
    expect(failed.due_in_s).toBeLessThanOrEqual(5);

    // Not due yet: the next look leaves it alone (no loop on a failing answer).
    tried.length = 0;
    await resignal();
    expect(tried).toEqual([]);

    // Due: tried again, and this time it goes through.
    await pool.query(`UPDATE question_answers SET signal_retry_at = now() - interval '1 second' WHERE id = $1`, [
      bad.answerId,
    ]);
    refuse = false;
    await resignal();
    expect(tried).toEqual([bad.exchangeId]);
    expect(await signalState(bad.answerId)).toMatchObject({ signalled: true, failures: 1 });
  });
});
