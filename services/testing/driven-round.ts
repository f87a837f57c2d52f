/**
 * A driven round's handler, run as the worker's round activity runs it (`executeHandler`): with the
 * context a round gets (this round's answers, the handler's state opened from its seal, what the
 * client declared, the caller), the time bound of its round activity, and every notification it
 * sends collected for the test.
 */
import { executeHandler } from '../../activities/handler-execution';
import { openHandlerState, roundResponses, unverifiableHandlerState } from '../../activities/round-rules';
import type { Principal } from '../../lib/exchange/principal';
import type { ExchangeInput, RoundOutcome } from '../../lib/exchange/types';
import type { HandlerSet } from '@durable-mcp/handlers';
import { createLogger } from '../../lib/log';
import type { HandlerStateCodec } from '../../lib/state/handler-state';
import { SealError } from '../../lib/state/sealer';
import { HANDLER_TIMEOUT_MS, LOCAL_HANDLER_TIMEOUT_MS } from './drive-defaults';
import type { HandlerNotification } from './drive-types';

const silent = createLogger('handler-test', 'silent');

export interface DrivenRound {
  round: number;
  /** The answers this round was given (none for the first call). */
  answers: Record<string, unknown> | undefined;
  capabilities: Record<string, unknown>;
  principal: Principal;
  handlerState: HandlerStateCodec;
  /** The handler's state as its previous ask sealed it. */
  sealedHandlerState: string | undefined;
  /** Where the round's notifications go, in order. */
  notifications: HandlerNotification[];
}

/** The round's outcome (before the ask rules), and the handler's state before sealing when it asked. */
export async function runHandler(
  set: HandlerSet,
  input: ExchangeInput,
  round: DrivenRound,
): Promise<{ outcome: RoundOutcome; handlerState?: string }> {
  const { exchangeId } = input;
  const { notifications } = round;
  try {
    const requestState = openHandlerState(round.handlerState, round.sealedHandlerState, {
      exchangeId,
      round: round.round,
    });
    const outcome = await executeHandler(
      set,
      input,
      {
        exchangeId,
        round: round.round,
        inputResponses: roundResponses(input, round.round, round.answers),
        requestState,
        clientCapabilities: round.capabilities,
        principal: round.principal,
        log: silent,
        signal: new AbortController().signal,
        progress: async (progress, total, message) => {
          notifications.push({ kind: 'progress', progress, total, message });
        },
        sendLog: async (level, data, logger) => {
          notifications.push({ kind: 'log', level, data, logger });
        },
        closeStream: async () => {
          notifications.push({ kind: 'close-stream' });
        },
      },
      input.roundActivity === 'regular' ? HANDLER_TIMEOUT_MS : LOCAL_HANDLER_TIMEOUT_MS,
    );
    return outcome.kind === 'ask' ? { outcome, handlerState: outcome.sealedHandlerState } : { outcome };
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    return { outcome: { kind: 'error', error: unverifiableHandlerState() } };
  }
}
