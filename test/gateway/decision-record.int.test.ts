/**
 * A round that decides by a decision point, run again (an activity retried, a worker that died
 * before recording the round) or twice at once, against the real decision record in Postgres and a
 * decision point that changes its mind between askings: the decision recorded first stands, the
 * repeat does not ask again, both attempts act alike, and the API signs the decision into the
 * evidence log exactly once (a second entry for the same exchange and round is refused by the log).
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { readBody } from '../../bench/baselines/http-child';
import { createDecisionRecordPg, createDecisionSignerPg } from '../../lib/db/gateway-decisions-pg';
import { createEvidenceLog } from '../../lib/db/evidence-log-pg';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { testKey } from '../../lib/evidence/test-chain';
import { policyGate } from '../../lib/gateway/policy-gate';
import { createLogger } from '../../lib/log';
import { CallPolicySchema, type CallPolicy } from '../../lib/upstreams/call-policy';
import { readStackInfo } from '../support/stack-info';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const log = createLogger('decision-record-test', 'silent');

/**
 * A decision point that forwards on its first asking, then denies every other; told to `hold` n
 * askings, it answers none until n have come (two attempts of a round both ask before either records).
 */
async function startFickleDecisionPoint() {
  let asked = 0;
  let hold = 1;
  let waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    void readBody(req).then(() => {
      asked += 1;
      const answer = asked === 1 ? { decision: true } : { decision: false, context: { reason: 'Changed my mind.' } };
      waiting.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
      if (waiting.length >= hold) {
        waiting.forEach((send) => send());
        waiting = [];
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/evaluation`,
    asked: () => asked,
    reset: (holding = 1) => {
      asked = 0;
      hold = holding;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let pool: Pool;
let point: Awaited<ReturnType<typeof startFickleDecisionPoint>>;
let policies: CallPolicy[];
beforeAll(async () => {
  pool = createPool(readStackInfo().databaseUrl, 4, log);
  await migrate(pool, log);
  point = await startFickleDecisionPoint();
  const parsed = CallPolicySchema.parse({
    name: 'fickle desk',
    tools: ['add'],
    decide: { url: point.url, secretEnv: 'DESK', timeoutMs: 2_000 },
  });
  policies = [
    { ...parsed, decide: { ...(parsed as { decide: object }).decide, secret: SECRET } } as unknown as CallPolicy,
  ];
});
afterAll(async () => {
  await point?.close();
  await pool?.end();
});
beforeEach(() => point.reset());

const gateOf = (exchangeId: string) =>
  policyGate(
    {
      upstream: 'shop',
      target: 'shop_add',
      tool: { name: 'add', inputSchema: { type: 'object' } },
      policies,
      decisions: createDecisionRecordPg(pool),
    },
    { a: 1, b: 2 },
    {
      inputResponses: {},
      principal: { id: 'anonymous', subject: 'anonymous', scopes: [] },
      exchangeId,
      round: 1,
      log,
    },
    { forwarded: false },
  );

const decisionsOf = async (exchangeId: string) =>
  (
    await pool.query<{ round: number; outcome: string }>(
      `SELECT round, facts->'decision'->>'outcome' AS outcome FROM gateway_decisions WHERE exchange_id = $1`,
      [exchangeId],
    )
  ).rows;

describe('a decision of the gateway, taken in a round that runs again', () => {
  it('stands as first recorded: the repeat acts on it and does not ask the decision point again', async () => {
    const exchangeId = randomUUID();
    expect(await gateOf(exchangeId)).toEqual({ kind: 'forward' });
    // Asked again, this point would deny: the repeat forwards, as the first attempt did.
    expect(await gateOf(exchangeId)).toEqual({ kind: 'forward' });
    expect(point.asked()).toBe(1);
    expect(await decisionsOf(exchangeId)).toEqual([{ round: 1, outcome: 'forward' }]);
  });

  it('two attempts at once, told different things, act alike on the one recorded first', async () => {
    const exchangeId = randomUUID();
    point.reset(2);
    const [one, other] = await Promise.all([gateOf(exchangeId), gateOf(exchangeId)]);
    expect(point.asked()).toBe(2);
    expect(one).toEqual(other);
    const recorded = await decisionsOf(exchangeId);
    expect(recorded).toHaveLength(1);
    expect(one.kind === 'forward' ? 'forward' : 'deny').toBe(recorded[0]!.outcome);
  });

  it('is signed into the evidence log once, whoever signs and however often', async () => {
    const exchangeId = randomUUID();
    await gateOf(exchangeId);
    const evidenceLog = createEvidenceLog([testKey()]);
    const signers = [createDecisionSignerPg(pool, evidenceLog), createDecisionSignerPg(pool, evidenceLog)];
    const signed = await Promise.all([
      signers[0]!.signPending(exchangeId),
      signers[1]!.signPending(exchangeId),
      signers[0]!.signPending(exchangeId),
    ]);
    expect(signed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await signers[1]!.signPending(exchangeId)).toBe(0);
    const { rows } = await pool.query<{ seq: string; signed_seq: string }>(
      `SELECT e.seq, g.signed_seq FROM evidence_entries e JOIN gateway_decisions g
          ON g.exchange_id = e.exchange_id AND g.round = e.decision_round
        WHERE e.exchange_id = $1`,
      [exchangeId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.signed_seq).toBe(rows[0]!.seq);
    // The log itself refuses a second entry of the same exchange and round.
    const { rows: facts } = await pool.query<{ facts: never }>(
      'SELECT facts FROM gateway_decisions WHERE exchange_id = $1',
      [exchangeId],
    );
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await expect(evidenceLog.appendDecision(client, facts[0]!.facts)).rejects.toThrow(/duplicate key/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
