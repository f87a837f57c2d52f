/** A chain of signed entries made in memory, for the tests of entries, exports and their verification. */
import { randomBytes } from 'node:crypto';
import { evidenceFactsOf, evidencePayloadOf, type EvidenceQuestion, type EvidenceVerdict } from './evidence-entry';
import type { StoredEntry } from './evidence-export';
import { entryHash, signEvidence, type SignedPayload } from './entry-signing';
import {
  gatewayDecisionFactsOf,
  gatewayDecisionPayloadOf,
  type GatewayDecision,
  type GatewayDecisionFacts,
} from './gateway-decision-entry';
import { ed25519KeyOf, type EvidenceSigningKey } from './signing-keys';

export const testKey = (kid = 'k1'): EvidenceSigningKey => ed25519KeyOf(kid, randomBytes(32));

export const QUESTION: EvidenceQuestion = {
  id: 'q-1',
  exchangeId: '00000000-0000-4000-8000-000000000001',
  round: 1,
  key: 'approval',
  method: 'tools/call',
  target: 'refund',
  arguments: { order: 'R-1', amount: 12.5 },
  caller: {
    id: 'https://id.example|alice',
    personId: 'https://id.example|alice',
    subject: 'alice',
    issuer: 'https://id.example',
  },
  message: 'Refund R-1?',
  shownDigest: 'shown-digest',
};

/** A gateway decision on QUESTION's call (round 1, policy `desk`), as an entry of the chain. */
export const gatewayDecisionOf = (decision: GatewayDecision, exchangeId = QUESTION.exchangeId): GatewayDecisionFacts =>
  gatewayDecisionFactsOf({
    exchangeId,
    round: 1,
    target: 'shop_refund',
    upstream: 'shop',
    tool: 'refund',
    arguments: QUESTION.arguments,
    caller: QUESTION.caller,
    policy: 'desk',
    decision,
    decisionPoint: { url: 'https://pdp.example/evaluate', status: 200, responseDigest: 'r', onError: 'deny' },
    at: Date.UTC(2026, 0, 1, 11),
  });

/**
 * Entries seq `firstSeq`.., each on `exchanges[i]` (default all on QUESTION's), chained as the
 * store chains them: an answer's for a verdict, a gateway decision's for `{ gateway: decision }`.
 */
export async function chainOf(
  key: EvidenceSigningKey,
  verdicts: Array<EvidenceVerdict | { gateway: GatewayDecision }>,
  options: { firstSeq?: number; prev?: string | null; exchanges?: string[] } = {},
): Promise<StoredEntry[]> {
  const entries: StoredEntry[] = [];
  let prev = options.prev ?? null;
  const lastOf = new Map<string, StoredEntry>();
  for (const [index, verdict] of verdicts.entries()) {
    const exchangeId = options.exchanges?.[index] ?? QUESTION.exchangeId;
    const last = lastOf.get(exchangeId);
    const seq = (options.firstSeq ?? 1) + index;
    const links = {
      seq,
      prev,
      exchangeSeq: (last?.exchangeSeq ?? 0) + 1,
      exchangePrev: last?.hash ?? null,
      loggedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
    };
    let payload: SignedPayload;
    if ('gateway' in verdict) payload = gatewayDecisionPayloadOf(gatewayDecisionOf(verdict.gateway, exchangeId), links);
    else payload = evidencePayloadOf(answerFactsOf(verdict, index, exchangeId), links);
    const jws = await signEvidence(payload, key);
    const entry = { seq, exchangeSeq: payload.exchangeSeq, hash: entryHash(jws), jws, prev };
    entries.push(entry);
    lastOf.set(exchangeId, entry);
    prev = entry.hash;
  }
  return entries;
}

function answerFactsOf(verdict: EvidenceVerdict, index: number, exchangeId: string) {
  return evidenceFactsOf(
    { ...QUESTION, exchangeId },
    {
      answerId: `a-${index}`,
      by: {
        id: 'https://id.example|dana',
        issuer: 'https://id.example',
        subject: 'dana',
        scopes: ['refunds:approve'],
        groups: [],
      },
      via: 'api',
      response: { action: 'accept', content: { note: 'fine' } },
      shownDigest: QUESTION.shownDigest,
      at: Date.UTC(2026, 0, 1, 12, 0, index),
    },
    verdict,
  );
}
