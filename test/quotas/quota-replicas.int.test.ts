/**
 * Two API replicas of one deployment share one count: calls spread over both, and a burst sent to
 * both at once, are let through up to the quota and no further, because the count is Postgres's,
 * not a process's. Without authorization every caller is the one anonymous principal, so the
 * per-principal quota is the deployment's rate.
 */
import { ANONYMOUS_PRINCIPAL_ID } from '../../lib/exchange/principal';
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { rawCall } from '../support/raw-mcp';
import { startTestService, type TestService } from '../support/test-service';
import { QUOTA_HANDLERS, roomInMinute } from './quota-support';

const LIMIT = 4;
const QUOTAS = { QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: String(LIMIT) };
const ANONYMOUS_KEY = JSON.stringify(['per-principal', 'principal', ANONYMOUS_PRINCIPAL_ID]);

let first: TestService;
let second: TestService;

beforeAll(async () => {
  first = await startTestService(QUOTAS, { handlers: QUOTA_HANDLERS });
  second = await startTestService(
    { ...QUOTAS, TEMPORAL_TASK_QUEUE: first.config.temporal.taskQueue },
    { handlers: QUOTA_HANDLERS },
  );
  await second.stopWorker(); // one worker (the first's) serves the shared queue
}, 120_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
});

beforeEach(async () => {
  await roomInMinute();
  // The anonymous principal is every caller of every service without authorization: a run of these
  // tests starts from a count of its own.
  await first.pool.query('DELETE FROM quota_counters WHERE key = $1', [ANONYMOUS_KEY]);
}, 30_000);

const call = (service: TestService) => rawCall(service.url, 'tools/call', { name: 'read_record', arguments: {} }, {});

/** Exchanges of `read_record` the anonymous principal started since `since`. */
async function startedSince(since: Date): Promise<number> {
  const { rows } = await first.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM exchanges WHERE principal = $1 AND target = 'read_record' AND created_at >= $2`,
    [ANONYMOUS_PRINCIPAL_ID, since],
  );
  return rows[0]!.n;
}

describe('two API replicas', () => {
  it('share one count: calls on either use the same quota, and either refuses the next', async () => {
    const since = new Date();
    for (const service of [first, second, first, second]) expect((await call(service)).status).toBe(200);
    for (const service of [first, second]) {
      const refused = await call(service);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: SERVER_BUSY,
        data: { quota: 'per-principal', window: 'minute', limit: LIMIT },
      });
      expect(refused.headers?.get('retry-after')).toBe(
        String((refused.body.error!.data as { retryAfterS: number }).retryAfterS),
      );
    }
    expect(await startedSince(since)).toBe(LIMIT);
  });

  it('let a burst sent to both at once through up to the quota, and refuse the rest', async () => {
    const since = new Date();
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 === 0 ? first : second)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(12 - LIMIT);
    expect(await startedSince(since)).toBe(LIMIT);
  });
});
