/**
 * One exchange a time-skipping test starts (time-skipping.ts `startTool`): created and started as the
 * API starts a first leg, then read round by round from Postgres, answered as a client's retry or,
 * for questions addressed to someone else, through the service's own answering, and awaited to its
 * ending as a client of the service would see it.
 */
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ExchangeStore } from '../lib/db/exchange-store';
import type { RoundRecord } from '../lib/exchange/types';
import type { QuestionStore } from '../lib/db/question-store';
import { ANONYMOUS_PRINCIPAL, detailsOf, personIdOf } from '../lib/exchange/principal';
import type { ExchangeInput, OriginalRequest } from '../lib/exchange/types';
import { fromOutcome } from '../lib/protocol/error-catalog';
import { addressedKeys, questionIdOf } from '../lib/questions/addressing';
import type { ElicitAnswer } from '../lib/questions/question';
import type { ExchangeResult } from '../workflows/exchange-workflow';
import { workflowIdFor } from '../lib/exchange-client/workflow-messages';
import type { QuestionAnswering } from '../lib/exchange-client/question-answering';
import type { ExchangeGateway } from '../lib/exchange-client/exchange-gateway';
import { answersTo } from '../lib/exchange-rules/leg-rules';
import { answererIdentity } from './driven-questions';
import type { StartOptions, TestExchange } from './time-skipping-types';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts one exchange on the environment's worker; refused once time was skipped in the environment. */
export async function startExchange(
  env: TestWorkflowEnvironment,
  store: ExchangeStore,
  gateway: ExchangeGateway,
  answers: { answering: QuestionAnswering; questions: QuestionStore },
  start: StartOptions & { request: OriginalRequest; roundTimeoutMs: number; maxRounds: number },
): Promise<TestExchange> {
  // Deadlines are set on the worker's clock and timed on the server's: once time was skipped, they part.
  const skew = (await env.currentTimeMs()) - Date.now();
  if (skew > 1_000)
    throw new Error(
      `time was skipped ${skew} ms in this environment already: start each exchange that skips time in a fresh one`,
    );
  const principal = start.principal ?? ANONYMOUS_PRINCIPAL;
  const exchangeId = randomUUID();
  const workflowId = workflowIdFor(exchangeId);
  const capabilities = (start.capabilities ?? {}) as Record<string, unknown>;
  // The exchange's input as the API builds it for a first leg (services/api/src/exchange-legs/start-leg.ts).
  const input: ExchangeInput = {
    exchangeId,
    era: 'modern',
    request: start.request,
    principal: principal.id,
    principalDetails: detailsOf(principal),
    callerPersonId: personIdOf(principal),
    clientCapabilities: capabilities,
    roundTimeoutMs: start.roundTimeoutMs,
    maxRounds: start.maxRounds,
  };
  await store.createExchange(input, workflowId);
  await gateway.start(input);

  async function round(n: number): Promise<RoundRecord> {
    for (;;) {
      const record = await store.readRound(exchangeId, n);
      if (record) return record;
      await delay(20);
    }
  }

  return {
    exchangeId,
    workflowId,
    round,
    async answer(n, responses) {
      const ask = await round(n);
      if (ask.outcome.kind !== 'ask') throw new Error(`round ${n} did not ask (its outcome: ${ask.outcome.kind})`);
      const answers = answersTo(ask.outcome.inputRequests, responses);
      const delivered = await gateway.sendAnswers(exchangeId, {
        round: n,
        ...answers,
        clientCapabilities: capabilities,
      });
      if (!delivered) throw new Error(`the exchange had ended before round ${n} was answered`);
    },
    async answerAs(n, answerer, responses) {
      const ask = await round(n);
      if (ask.outcome.kind !== 'ask') throw new Error(`round ${n} did not ask (its outcome: ${ask.outcome.kind})`);
      const by = answererIdentity(answerer, input);
      const replies = [];
      for (const [key, response] of Object.entries(responses)) {
        const id = questionIdOf(exchangeId, n, key, addressedKeys(ask.outcome.inputRequests));
        const question = await answers.answering.answer({
          questionId: id,
          by,
          via: 'harness',
          response: response as ElicitAnswer,
          shownDigest: (await answers.questions.read(id))?.shownDigest ?? '',
        });
        replies.push({ key, reply: question.kind === 'refused' ? question.refusal : question.kind });
      }
      return replies;
    },
    async ending() {
      const result = await env.client.workflow.getHandle(workflowId).result();
      const { status, rounds, asks } = result as ExchangeResult;
      const last = await round(rounds);
      const { outcome } = last;
      return {
        status,
        round: rounds,
        asks,
        ...(outcome.kind === 'complete' ? { result: outcome.result } : {}),
        ...(outcome.kind === 'error' ? { error: fromOutcome(outcome.error).toJson() } : {}),
      };
    },
  };
}
