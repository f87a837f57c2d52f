/**
 * The state a gateway round keeps for the next, as the handler's own state (the service seals it
 * and gives it back verified, so no client can forge it): whether the gate asked its approval,
 * whether the call was already forwarded (its policy decided once,
 * before the first upstream call, and never again for that exchange, whatever a reload changes),
 * the upstream's own `requestState`, byte for byte, and the approvals the call was forwarded on,
 * which its final result names however many rounds the upstream asks for first.
 */
import type { ApprovalRef } from '../evidence/approvals-meta';

export interface GatewayState {
  forwarded: boolean;
  /** Set with the gate's approval question: the round after it may take that approval's answer. */
  asked?: boolean;
  upstream?: string;
  approvals?: ApprovalRef[];
}

const FIRST: GatewayState = { forwarded: false };

export function readGatewayState(state: string | undefined): GatewayState {
  if (state === undefined) return FIRST;
  const parsed = JSON.parse(state) as { f?: unknown; a?: unknown; u?: unknown; p?: unknown };
  return {
    forwarded: parsed.f === true,
    ...(parsed.a === true ? { asked: true } : {}),
    ...(typeof parsed.u === 'string' ? { upstream: parsed.u } : {}),
    // Written by the gateway and sealed by the service, so it is what the gateway wrote.
    ...(Array.isArray(parsed.p) && parsed.p.length > 0 ? { approvals: parsed.p as ApprovalRef[] } : {}),
  };
}

export const writeGatewayState = (state: GatewayState): string =>
  JSON.stringify({
    f: state.forwarded,
    ...(state.asked ? { a: true } : {}),
    ...(state.upstream !== undefined ? { u: state.upstream } : {}),
    ...(state.approvals?.length ? { p: state.approvals } : {}),
  });
