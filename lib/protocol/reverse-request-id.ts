/**
 * Ids of server-to-client requests: strings in the service's own namespace (`mcp-srq:` plus the
 * exchange's UUID), so they never collide with a client's own request ids, and they name the
 * exchange, the round and the ask's key they answer.
 */
const PREFIX = 'mcp-srq';

export function reverseRequestId(exchangeId: string, round: number, key: string): string {
  return `${PREFIX}:${exchangeId}:${round}:${Buffer.from(key, 'utf8').toString('base64url')}`;
}

export function isReverseRequestId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith(`${PREFIX}:`);
}
