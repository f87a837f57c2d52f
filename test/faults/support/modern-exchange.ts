/**
 * A 2026-07-28 client of the greet tool over raw HTTP, as a patient real client behaves: a
 * state-only result (requestState, `inputRequests: {}`) is re-sent, with the same inputResponses,
 * until the final result or an error; a connection error (an API process that died or stopped)
 * is retried on the other API process. JSON-RPC errors are outcomes, never retried.
 */
import { createSealer } from '../../../lib/state/sealer';
import { createRequestStateCodec } from '../../../lib/state/request-state';
import { requestDigestOf } from '../../../lib/exchange-rules/leg-rules';
import { accept, rawCall, type RpcReply } from '../../support/raw-mcp';
import { sleep } from './wait-for';

export interface ApiChoice {
  /** The APIs that are up now, in slot order. */
  urls(): string[];
  /** Which of them to try first. */
  prefer?: number;
  /** The client capabilities each leg declares (default: elicitation only). */
  capabilities?: Record<string, unknown>;
  /** Headers each leg carries (a bearer token, fresh for each leg); none by default. */
  headers?: () => Promise<Record<string, string>>;
  /** The principal key the service binds this client's requestStates to (default: the anonymous one). */
  principal?: string;
}

export interface LegTrace {
  /** Legs that reached an API and got a JSON-RPC answer. */
  legs: number;
  /** State-only results among them. */
  stateOnly: number;
  /** Legs that failed on the connection and were sent again. */
  connectionErrors: number;
}

export const newTrace = (): LegTrace => ({ legs: 0, stateOnly: 0, connectionErrors: 0 });

const GREET = { name: 'greet', arguments: {} };

/** A tools/call's params without its answers: which tool, with what arguments. */
export type ToolCall = { name: string; arguments: Record<string, unknown> } & Record<string, unknown>;

/** Exchange ids are inside the sealed requestState; the harness holds the key ring, so it can read them. */
export function exchangeIdOf(
  keyRing: string,
  requestState: string,
  call: ToolCall = GREET,
  principal = 'anonymous',
): string {
  const keys = keyRing.split(',').map((entry) => {
    const [kid, key] = entry.split(':') as [string, string];
    return { kid, key: Buffer.from(key, 'base64') };
  });
  const codec = createRequestStateCodec(createSealer(keys), 3_600_000);
  const requestDigest = requestDigestOf({ method: 'tools/call', target: call.name, params: call });
  return codec.verify(requestState, { requestDigest, principal }).exchangeId;
}

/** One leg, sent again (to the next API) while the connection fails, for up to `patienceMs`. */
export async function sendLeg(
  apis: ApiChoice,
  params: Record<string, unknown>,
  trace: LegTrace,
  patienceMs = 120_000,
): Promise<RpcReply> {
  const deadline = Date.now() + patienceMs;
  let attempt = apis.prefer ?? 0;
  for (;;) {
    const urls = apis.urls();
    const url = urls[attempt % Math.max(urls.length, 1)];
    try {
      if (!url) throw new Error('no API process is up');
      const headers = apis.headers ? { headers: await apis.headers() } : {};
      const reply = await rawCall(url, 'tools/call', params, apis.capabilities, headers);
      trace.legs += 1;
      return reply;
    } catch (error) {
      trace.connectionErrors += 1;
      if (Date.now() > deadline)
        throw new Error(`leg never reached an API in ${patienceMs} ms: ${(error as Error).message}`);
      attempt += 1;
      await sleep(250);
    }
  }
}

const askedKeys = (reply: RpcReply) => Object.keys((reply.body.result?.inputRequests as object | undefined) ?? {});

/** A state-only result: `inputRequests: {}` (nothing to answer) and a requestState to come back with. */
export const isStateOnly = (reply: RpcReply) =>
  reply.body.result?.resultType === 'input_required' &&
  askedKeys(reply).length === 0 &&
  typeof reply.body.result.requestState === 'string';

export const isAsk = (reply: RpcReply) =>
  reply.body.result?.resultType === 'input_required' && askedKeys(reply).length > 0;

/**
 * Re-sends `params` with each state-only result's requestState until something else comes back
 * (or `patienceMs` passes, which throws, naming how many state-only results the client got).
 */
export async function pollPastStateOnly(
  apis: ApiChoice,
  params: Record<string, unknown>,
  first: RpcReply,
  trace: LegTrace,
  patienceMs: number,
): Promise<RpcReply> {
  const deadline = Date.now() + patienceMs;
  let reply = first;
  while (isStateOnly(reply)) {
    trace.stateOnly += 1;
    if (Date.now() > deadline)
      throw new Error(`still a state-only result after ${patienceMs} ms (${trace.stateOnly} of them)`);
    reply = await sendLeg(apis, { ...params, requestState: reply.body.result!.requestState }, trace);
  }
  return reply;
}

export interface Ask {
  exchangeId: string;
  requestState: string;
  inputRequests: Record<string, unknown>;
}

/** The first leg, followed until round 1's ask arrives. */
export function startGreet(apis: ApiChoice, trace: LegTrace, keyRing: string, patienceMs = 120_000): Promise<Ask> {
  return startCall(apis, GREET, trace, keyRing, patienceMs);
}

/** The first leg of any tool's call, followed until round 1's ask arrives. */
export async function startCall(
  apis: ApiChoice,
  call: ToolCall,
  trace: LegTrace,
  keyRing: string,
  patienceMs = 120_000,
): Promise<Ask> {
  const first = await sendLeg(apis, call, trace);
  const reply = await pollPastStateOnly(apis, call, first, trace, patienceMs);
  return askOf(reply, keyRing, call, 'first leg', apis.principal);
}

/** The ask in `reply` (with the exchange it belongs to), or an error that shows what came instead. */
export function askOf(reply: RpcReply, keyRing: string, call: ToolCall, leg: string, principal?: string): Ask {
  if (!isAsk(reply)) throw new Error(`${leg}: expected an ask, got ${JSON.stringify(reply.body)}`);
  const requestState = reply.body.result!.requestState as string;
  return {
    exchangeId: exchangeIdOf(keyRing, requestState, call, principal),
    requestState,
    inputRequests: reply.body.result!.inputRequests as Record<string, unknown>,
  };
}

export const answerParams = (ask: Ask, name: string) => ({
  ...GREET,
  inputResponses: { name: accept({ name }) },
  requestState: ask.requestState,
});

/** Answers the ask and follows state-only results to the final result or error. */
export async function answerGreet(
  apis: ApiChoice,
  ask: Ask,
  name: string,
  trace: LegTrace,
  patienceMs = 120_000,
): Promise<RpcReply> {
  const params = answerParams(ask, name);
  const first = await sendLeg(apis, params, trace);
  return pollPastStateOnly(apis, params, first, trace, patienceMs);
}

export const greeting = (name: string) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] });
