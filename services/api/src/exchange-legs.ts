/**
 * Maps the legs of a modern multi-round-trip call onto its durable exchange.
 *
 * - A first leg (no requestState) starts a workflow and waits for round 1.
 * - A retry carrying `inputResponses` and an `ask` requestState answers that round: the answers are
 *   signalled once and the API waits for the next round. Sending the same leg again does not
 *   advance the exchange twice: it finds the next round already recorded and gets its outcome.
 *   Different answers to a round that was already answered are refused.
 * - When an outcome is not ready within the HTTP wait budget, the client gets a state-only
 *   `InputRequiredResult` (a `wait` requestState) and comes back for it, instead of the API
 *   holding the connection for the whole round.
 *
 * - A call that runs as a task (the Tasks extension, SEP-2663) is answered with its task instead of
 *   a round's outcome: a first leg whose task begins at the call starts the exchange in task mode,
 *   and a retry whose answers begin it (`taskBegins: 'after-input'`) signals them with the task
 *   mode. Either way the task's row is written before the answer, so tasks/get finds it at once.
 *
 * What each leg is and gets is decided by the pure functions of leg-decisions.ts; this module reads
 * Postgres, signals Temporal and waits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ExchangeStore, RoundRecord } from '../../../lib/db/exchange-store';
import type { OutcomeWaiter, Watch } from '../../../lib/db/outcome-waiter';
import type { TaskRecord, TaskStore } from '../../../lib/db/task-store';
import { ANONYMOUS_PRINCIPAL_ID, detailsOf, type Principal } from '../../../lib/exchange/principal';
import type {
  Era,
  ExchangeInput,
  ExchangeMethod,
  ExchangeOrigin,
  Listening,
  OriginalRequest,
  TaskMode,
} from '../../../lib/exchange/types';
import { exchangeLogger, logExchange, type Logger } from '../../../lib/log';
import { activeTraceContext, linkToExchangeTrace, tagLegExchange } from '../../../lib/tracing';
import { exchangeExpired } from '../../../lib/protocol/exchange-errors';
import { capacityExceeded, fromOutcome, invalidRequestState } from '../../../lib/protocol/error-catalog';
import type { RpcError } from '../../../lib/protocol/rpc-error';
import { RequestStateError, type RequestStateClaims, type RequestStateCodec } from '../../../lib/state/request-state';
import { apiMetrics } from '../../../lib/metrics/api-metrics';
import { workflowIdFor } from '../../../workflows/messages';
import { redeliverIfMissing } from './answer-redelivery';
import type { ExchangeGateway } from './exchange-gateway';
import type { ExchangeReconciler } from './exchange-reconciler';
import {
  afterWait,
  answeredDifferently,
  answeredWith,
  awaitedWith,
  classifyAnswer,
  classifyLeg,
  requestDigestOf,
  roundInputTooLarge,
  targetTooLong,
  type RoundResult,
} from './leg-decisions';

export interface ExchangeLeg {
  method: ExchangeMethod;
  target: string;
  /** The request params without `_meta`, `inputResponses` and `requestState`. */
  params: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  clientCapabilities: Record<string, unknown>;
  /** Who sends the leg: a retry's requestState must have been minted for the same principal. */
  principal: Principal;
  era: Era;
  /** What this leg listens for while its round runs (progress token, log level). */
  listening?: Listening;
  /** Who sent it (client, session tag, protocol version), for what operators see in Temporal. */
  origin?: ExchangeOrigin;
  /**
   * When this call runs as a task (its tool supports tasks and this leg's client declared the
   * extension): at its first leg, or at the retry that answers its first ask.
   */
  taskBegins?: 'at-call' | 'after-input';
}

export interface LegOptions {
  signal?: AbortSignal;
  /**
   * Called once the round this leg waits for is known, so the caller can follow its notifications
   * (after `afterEvent`, the last one an earlier leg of this client was sent).
   */
  onRound?: (exchangeId: string, round: number, afterEvent?: number) => void;
}

/** What a requestState is bound to besides its exchange and round: the call, by its digest, and the caller. */
export interface LegBinding {
  requestDigest: string;
  principal: string;
}

/**
 * What a leg resolves to, with the binding it was verified or started with, so the requestState
 * minted for its answer is bound to the same digest (computed once per leg).
 */
export type LegResult = (RoundResult | { kind: 'task'; task: TaskRecord }) & { binding: LegBinding };

/** The shortest TTL a task is given, whatever its client asked for (TASK_TTL_MS has the same floor). */
export const MIN_TASK_TTL_MS = 1000;

/** A task id: 192 random bits, so that no one can guess another's (SEP-2663 security considerations). */
export const newTaskId = () => randomBytes(24).toString('base64url');

/** What the workflow is told of its task. */
export const taskModeOf = (task: TaskRecord): TaskMode => ({
  taskId: task.taskId,
  ttlMs: task.ttlMs,
  pollIntervalMs: task.pollIntervalMs,
  expiresAt: task.expiresAt.getTime(),
});

export interface LegLimits {
  roundTimeoutMs: number;
  maxRounds: number;
  httpWaitMs: number;
  maxRoundInputBytes: number;
  maxTargetLength: number;
  maxRunningExchanges: number;
  maxRunningExchangesPerPrincipal: number;
  maxInflightLegs: number;
  capacityRetryAfterS: number;
  /** Every task's TTL (TASK_TTL_MS) and the poll interval its client is given (TASK_POLL_INTERVAL_MS). */
  taskTtlMs: number;
  taskPollIntervalMs: number;
}

export interface ExchangeLegsDeps {
  gateway: ExchangeGateway;
  store: ExchangeStore;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  requestState: RequestStateCodec;
  tasks: TaskStore;
  limits: LegLimits;
  log: Logger;
  /** The version of the handlers this API serves, recorded with every exchange it starts (its row, its workflow). */
  handlerVersion?: string;
}

/** Refuses a round whose input (this leg's arguments and capabilities, and `answers`) is over the budget. */
function checkRoundInput(leg: ExchangeLeg, answers: unknown, limit: number): void {
  const refusal = roundInputTooLarge(
    { params: leg.params, answers, clientCapabilities: leg.clientCapabilities },
    limit,
  );
  if (refusal) throw refusal;
}

/** The original request a leg carries. */
const requestOf = (leg: ExchangeLeg): OriginalRequest => ({
  method: leg.method,
  target: leg.target,
  params: leg.params,
});

export function createExchangeLegs(deps: ExchangeLegsDeps) {
  const { gateway, store, waiter, reconciler, limits, log } = deps;
  let inflight = 0;

  /**
   * The round's outcome as `watch` hears or finds it (`absent`: nothing was there when the watch
   * began, see WaitOptions), or "come back". Before saying "come back", Temporal is asked whether
   * the workflow still runs: one that was terminated (or otherwise closed) gets its ending
   * recorded, so no client is told to come back forever.
   */
  async function awaitRound(
    watch: Watch<RoundRecord>,
    exchangeId: string,
    round: number,
    options: LegOptions,
    absent: boolean,
  ): Promise<RoundResult> {
    options.onRound?.(exchangeId, round);
    const record = await watch.wait(limits.httpWaitMs, { signal: options.signal, absent });
    if (record) return { kind: 'recorded', record };
    return afterWait(exchangeId, round, options.signal?.aborted ? undefined : await reconciler.reconcile(exchangeId));
  }

  /** Waits on a watch it begins now, closed however `work` ends. */
  async function watching<T>(
    exchangeId: string,
    round: number,
    work: (watch: Watch<RoundRecord>) => Promise<T>,
  ): Promise<T> {
    const watch = waiter.watchRound(exchangeId, round);
    try {
      return await work(watch);
    } finally {
      watch.close();
    }
  }

  /**
   * Writes the task row of an exchange (or reads the one it has), before anyone is told of it. Its
   * TTL is TASK_TTL_MS, or the shorter one a 2025-11-25 client asked for (`params.task.ttl`).
   */
  const taskFor = (exchangeId: string, leg: ExchangeLeg, requestedTtlMs?: number) =>
    deps.tasks.create({
      taskId: newTaskId(),
      exchangeId,
      principal: leg.principal.id,
      ttlMs: Math.min(limits.taskTtlMs, Math.max(requestedTtlMs ?? limits.taskTtlMs, MIN_TASK_TTL_MS)),
      pollIntervalMs: limits.taskPollIntervalMs,
    });

  /**
   * Starts the exchange's workflow; the first round runs as soon as a worker takes it. As a task
   * (`asTask`), its task row is written between the exchange's row and the workflow.
   */
  async function start(
    leg: ExchangeLeg,
    exchangeId: string = randomUUID(),
    asTask = false,
    requestedTtlMs?: number,
  ): Promise<TaskRecord | undefined> {
    logExchange(exchangeId);
    tagLegExchange(exchangeId, 1);
    const tooLong = targetTooLong(leg.method, leg.target, limits.maxTargetLength);
    if (tooLong) throw tooLong;
    checkRoundInput(leg, leg.inputResponses, limits.maxRoundInputBytes);
    const request = requestOf(leg);
    const input: ExchangeInput = {
      exchangeId,
      era: leg.era,
      request,
      principal: leg.principal.id,
      principalDetails: detailsOf(leg.principal),
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
      // Answers sent before any ask are carried to round 1: the handler reads what it knows.
      ...(leg.inputResponses ? { initialResponses: leg.inputResponses } : {}),
      roundTimeoutMs: limits.roundTimeoutMs,
      maxRounds: limits.maxRounds,
      ...(deps.handlerVersion !== undefined ? { handlerVersion: deps.handlerVersion } : {}),
    };
    // The row exists before the workflow does, so an exchange Temporal ends at once still has a record
    // to end; it is written only while the deployment runs fewer than its budget of exchanges, and an
    // authenticated principal fewer than its own (the anonymous principal is every caller at once).
    const ofPrincipal =
      leg.principal.id === ANONYMOUS_PRINCIPAL_ID ? undefined : limits.maxRunningExchangesPerPrincipal;
    // With the trace context of this leg, which holds the workflow's trace: later legs link to it.
    const room = await store.createExchange(
      input,
      workflowIdFor(exchangeId),
      limits.maxRunningExchanges,
      ofPrincipal,
      activeTraceContext(),
    );
    if (room === 'full') {
      throw capacityExceeded('too many running exchanges', limits.maxRunningExchanges, limits.capacityRetryAfterS);
    }
    if (room === 'full-for-principal') {
      const limit = limits.maxRunningExchangesPerPrincipal;
      throw capacityExceeded('running exchanges of this principal', limit, limits.capacityRetryAfterS);
    }
    let task: TaskRecord | undefined;
    try {
      if (asTask) {
        task = await taskFor(exchangeId, leg, requestedTtlMs);
        input.task = taskModeOf(task);
      }
      await gateway.start(input, leg.origin);
    } catch (error) {
      // Temporal refused or could not be reached: the client is told, and no half-started exchange stays behind.
      await store.forgetUnstarted(exchangeId).catch(() => undefined);
      throw error;
    }
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round: 1 }).info(
      { method: leg.method, target: leg.target, era: leg.era },
      'exchange started',
    );
    return task;
  }

  /**
   * Answers the ask of `claims.round`, `watch` watching the round after it since before the read
   * that finds it unrecorded, so whatever records it after that read is heard.
   */
  async function answerLeg(
    leg: ExchangeLeg,
    claims: RequestStateClaims,
    options: LegOptions,
    watch: Watch<RoundRecord>,
  ): Promise<RoundResult | { kind: 'task'; task: TaskRecord }> {
    const { exchangeId, round } = claims;
    const legLog = exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round });
    const [ask, next] = await store.readRoundAndNext(exchangeId, round);
    const answer = classifyAnswer({ ask, next, inputResponses: leg.inputResponses, now: Date.now() });
    // Answers that begin the call's task (its tool's task begins after its input): the task's row
    // is written once they are known to be signalled, before they are; a repeat of the same leg
    // finds the same task.
    const beginsTask = leg.taskBegins === 'after-input';
    switch (answer.kind) {
      case 'stale':
        legLog.warn({ reason: 'no-ask' }, 'requestState rejected');
        throw invalidRequestState();
      case 'retry':
        if (beginsTask) return { kind: 'task', task: await taskFor(exchangeId, leg) };
        return { kind: 'recorded', record: answer.record };
      case 'mismatch':
        throw answeredDifferently(round);
      case 'late':
        // The deadline is a rule: answers after it are refused here, before anything is signalled.
        legLog.info({ deadlineAt: answer.deadlineAt }, 'answers refused: the round deadline has passed');
        throw fromOutcome(exchangeExpired(exchangeId, round, answer.roundTimeoutMs));
      case 'fresh':
        break;
    }
    const { responses, digest } = answer;
    checkRoundInput(leg, responses, limits.maxRoundInputBytes);
    const task = beginsTask ? await taskFor(exchangeId, leg) : undefined;
    // The ask these answers take is answered from the task's first instant: tasks/get must not
    // show it as outstanding while the workflow takes them.
    if (task && ask?.outcome.kind === 'ask')
      await deps.tasks.recordAnswered(
        exchangeId,
        round,
        Object.keys(ask.outcome.inputRequests).map((key) => ({ key, bytes: 0 })),
      );

    const delivered = await gateway.sendAnswers(exchangeId, {
      round,
      responses,
      digest,
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
      ...(task ? { task: taskModeOf(task) } : {}),
    });
    legLog.info(
      // A task is logged by its exchange, never by its id (its client's handle on it).
      { keys: Object.keys(responses), delivered, ...(task ? { asTask: true } : {}) },
      'answers signalled',
    );
    if (delivered && ask) apiMetrics.answerSignalled(leg.era, ask.recordedAt);
    // The call is a task from here on: its client follows it with tasks/get.
    if (task) return { kind: 'task', task };
    if (!delivered) {
      // The workflow ended meanwhile: it expired (its ending is recorded), or Temporal ended it.
      const ended = (await store.readRound(exchangeId, round + 1)) ?? (await reconciler.reconcile(exchangeId));
      if (ended) return answeredWith(ended, digest);
    }
    // The read above found no next round after the watch began: only an announcement, or a wake-up
    // that says one may have been missed, makes the wait read.
    return awaitedWith(await awaitRound(watch, exchangeId, round + 1, options, true), digest);
  }

  /**
   * Signals this leg's answers to the ask of `round` again if they are the answers it was told to
   * come back with (`digest`), the ask is still in time, and the workflow says it lacks them.
   */
  async function redeliverAnswers(leg: ExchangeLeg, exchangeId: string, round: number, digest: string): Promise<void> {
    if (!leg.inputResponses) return;
    const [ask, next] = await store.readRoundAndNext(exchangeId, round);
    const answer = classifyAnswer({ ask, next, inputResponses: leg.inputResponses, now: Date.now() });
    if (answer.kind !== 'fresh' || answer.digest !== digest) return;
    const { responses } = answer;
    await redeliverIfMissing(gateway, log, {
      exchangeId,
      round,
      era: leg.era,
      deliver: () =>
        gateway.sendAnswers(exchangeId, {
          round,
          responses,
          digest,
          clientCapabilities: leg.clientCapabilities,
          ...(leg.listening ? { listening: leg.listening } : {}),
        }),
    });
  }

  /** A first leg starts the exchange; a retry answers its ask (or comes back for its outcome). */
  async function runLeg(
    leg: ExchangeLeg,
    requestDigest: string,
    options: LegOptions,
  ): Promise<RoundResult | { kind: 'task'; task: TaskRecord }> {
    const claims = leg.requestState === undefined ? undefined : verified(leg, leg.requestState, requestDigest);
    const kind = classifyLeg(claims);
    if (claims) {
      logExchange(claims.exchangeId);
      tagLegExchange(claims.exchangeId, claims.round + 1);
      await linkToExchangeTrace(() => store.readTraceContext(claims.exchangeId));
    }
    switch (kind.kind) {
      case 'first': {
        // A task is answered with itself at once: nothing waits for its rounds.
        if (leg.taskBegins === 'at-call') return { kind: 'task', task: (await start(leg, randomUUID(), true))! };
        // Watched before the workflow exists, so nothing can record round 1 before the watch hears it.
        const exchangeId = randomUUID();
        return watching(exchangeId, 1, async (watch) => {
          await start(leg, exchangeId);
          return awaitRound(watch, exchangeId, 1, options, true);
        });
      }
      case 'answer': {
        const { exchangeId, round } = kind.claims;
        return watching(exchangeId, round + 1, (watch) => answerLeg(leg, kind.claims, options, watch));
      }
      case 'come-back': {
        const { exchangeId, round, afterEvent, answersDigest } = kind.claims;
        options.onRound?.(exchangeId, round, afterEvent);
        const result = await watching(exchangeId, round, (watch) =>
          awaitRound(watch, exchangeId, round, { ...options, onRound: undefined }, false),
        );
        // Still nothing after a whole wait: the answers this client sent may never have reached the
        // round (the workflow says), and this leg carries them again.
        if (result.kind === 'pending' && answersDigest !== undefined && !options.signal?.aborted)
          await redeliverAnswers(leg, exchangeId, round - 1, answersDigest);
        return awaitedWith(result, answersDigest);
      }
    }
  }

  /** The claims of a leg's requestState; anything that fails verification is refused with one error. */
  function verified(leg: ExchangeLeg, requestState: string, requestDigest: string): RequestStateClaims {
    try {
      return deps.requestState.verify(requestState, { requestDigest, principal: leg.principal.id });
    } catch (error) {
      if (!(error instanceof RequestStateError)) throw error;
      log.warn({ reason: error.reason, method: leg.method, target: leg.target }, 'requestState rejected');
      throw invalidRequestState();
    }
  }

  return {
    /** Starts the exchange of a first leg that answers elsewhere (a handshake-era call's stream). */
    start: async (leg: ExchangeLeg, exchangeId: string = randomUUID()) => {
      await start(leg, exchangeId);
      return exchangeId;
    },

    /**
     * Starts the exchange of a handshake-era call that runs as a task (2025-11-25 `params.task`),
     * its task row written before the workflow starts; `requestedTtlMs` may shorten its TTL.
     */
    startTask: async (leg: ExchangeLeg, exchangeId: string, requestedTtlMs?: number): Promise<TaskRecord> =>
      (await start(leg, exchangeId, true, requestedTtlMs))!,

    /** Runs one leg; at most `maxInflightLegs` wait in this process at once. */
    async run(leg: ExchangeLeg, options: LegOptions = {}): Promise<LegResult> {
      if (inflight >= limits.maxInflightLegs) {
        throw capacityExceeded(
          'too many requests in progress on this server',
          limits.maxInflightLegs,
          limits.capacityRetryAfterS,
        );
      }
      inflight += 1;
      try {
        // Digested once: the requestState is verified against it, and the requestState minted for
        // this leg's answer is bound to it.
        const binding: LegBinding = { requestDigest: requestDigestOf(requestOf(leg)), principal: leg.principal.id };
        return { ...(await runLeg(leg, binding.requestDigest, options)), binding };
      } finally {
        inflight -= 1;
      }
    },
  };
}

export type ExchangeLegs = ReturnType<typeof createExchangeLegs>;

/** Ends the leg with the exchange's error, if its outcome is one. */
export function errorOf(record: RoundRecord): RpcError | undefined {
  return record.outcome.kind === 'error' ? fromOutcome(record.outcome.error) : undefined;
}
