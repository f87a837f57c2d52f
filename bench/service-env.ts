/**
 * The environment the bench gives the service's processes (the dev, prod and gateway targets):
 * its own database, Temporal task queue and port, fresh keys, and what it serves. Pure apart from
 * the keys it draws, so bench/self-check.ts can parse it with the service's own config loader.
 */
import { randomBytes } from 'node:crypto';

export interface ServiceEnvInput {
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  port: number;
  /** The upstream the gateway target stands in front of; absent, the service serves the `bench` set. */
  upstreamUrl?: string;
  /** How the upstream's rounds run (the gateway-local target: `local`); regular unless said. */
  upstreamRounds?: 'regular' | 'local';
}

export function serviceEnv(input: ServiceEnvInput): Record<string, string> {
  return {
    DATABASE_URL: input.databaseUrl,
    TEMPORAL_ADDRESS: input.temporalAddress,
    TEMPORAL_TASK_QUEUE: input.taskQueue,
    HOST: '127.0.0.1',
    PORT: String(input.port),
    ...(input.upstreamUrl === undefined
      ? { HANDLER_SET: 'bench' }
      : gatewayEnv(input.upstreamUrl, input.upstreamRounds ?? 'regular')),
    REQUEST_STATE_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    PAYLOAD_CODEC_KEYS: `benchcodec:${randomBytes(32).toString('base64')}`,
    // One principal opening many exchanges of the same call: each is its own, not a repeat to join.
    REATTACH_IDENTICAL_CALLS_MS: '0',
    EVIDENCE_SIGNING_KEYS: `benchevidence:${randomBytes(32).toString('base64')}`,
  };
}

/**
 * The gateway in front of the bench's upstream alone: no local tools, and no prefix, so the
 * upstream's three tools keep the names the scenarios call (bench/scenarios.ts).
 */
function gatewayEnv(upstreamUrl: string, rounds: 'regular' | 'local'): Record<string, string> {
  const served = { HANDLERS: 'none', UPSTREAM_URL: upstreamUrl, UPSTREAM_NAME: 'sdk', UPSTREAM_TOOL_PREFIX: '' };
  if (rounds === 'regular') return served;
  // Local rounds: the upstream's three attempts (3 x 5 s and their pauses, 16.25 s) must fit the
  // local bound, raised for it; a call on this machine takes milliseconds, so neither is reached.
  return {
    ...served,
    UPSTREAM_ROUND_ACTIVITY: 'local',
    UPSTREAM_CALL_TIMEOUT_MS: '5000',
    LOCAL_HANDLER_TIMEOUT_MS: '20000',
  };
}
