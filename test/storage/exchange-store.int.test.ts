/**
 * The exchange store's round records against the real Postgres: first write wins (also between two
 * writes racing to create a missing exchange row), the exchange row follows the outcome (never out
 * of a final status) and keeps the columns its first leg wrote, the announcement goes out once and
 * carries the record when it fits, a notification creates a missing row too, a local round's start is counted only while its round has no record,
 * and the running-exchange budgets (the deployment's, a principal's) are checked in the statement
 * that opens one.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { decodeAnnouncedRound, OUTCOME_CHANNEL } from '../../lib/db/exchange-store';
import { type RoundRecord } from '../../lib/exchange/types';
import { createPool } from '../../lib/db/pool';
import { migrate } from '../../lib/db/migrate';
import type { ExchangeInput } from '../../lib/exchange/types';
import { createLogger } from '../../lib/log';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readStackInfo } from '../support/stack-info';

const log = createLogger('test', 'silent');
const pool = createPool(readStackInfo().databaseUrl, 2, log);
const store = createExchangeStorePg(pool);

function exchangeInput(era: ExchangeInput['era'] = 'modern'): ExchangeInput {
  return {
    exchangeId: randomUUID(),
    era,
    request: { method: 'tools/call', target: 'store_test', params: { name: 'store_test', arguments: {} } },
    principal: 'anonymous',
    clientCapabilities: {},
    roundTimeoutMs: 60_000,
    maxRounds: 8,
  };
}

const ask = { kind: 'ask' as const, inputRequests: { name: { method: 'elicitation/create', params: {} } } };
const done = { kind: 'complete' as const, result: { content: [] } };

async function exchangeRow(id: string) {
  const { rows } = await pool.query<{ status: string; rounds: number; asks: number }>(
    'SELECT status, rounds, asks FROM exchanges WHERE id = $1',
    [id],
  );
  return rows[0];
}

beforeAll(() => migrate(pool, log));
afterAll(() => pool.end());

describe('recordRound (modern era, one statement)', () => {
  it('records a round, moves the exchange to its status and counts its asks', async () => {
    const exchange = exchangeInput();
    await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
    const workflowId = workflowIdFor(exchange.exchangeId);
    const first = await store.recordRound({ exchange, workflowId, round: 1, outcome: ask, deadlineAt: new Date() });
    expect(first).toMatchObject({ round: 1, outcome: ask, deadlineAt: expect.any(Date) });
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'running', rounds: 1, asks: 1 });
    await store.recordRound({ exchange, workflowId, round: 2, outcome: done, answersDigest: 'd' });
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'completed', rounds: 2, asks: 1 });
    expect((await store.readRound(exchange.exchangeId, 2))?.answersDigest).toBe('d');
  });

  it('keeps the first write of a round and returns it to a second, changing nothing', async () => {
    const exchange = exchangeInput();
    await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
    const workflowId = workflowIdFor(exchange.exchangeId);
    const first = await store.recordRound({ exchange, workflowId, round: 1, outcome: done });
    expect(first.recordedNow).toBe(true);
    const error = { kind: 'error' as const, error: { code: -32001, message: 'expired' } };
    const again = await store.recordRound({ exchange, workflowId, round: 1, outcome: error });
    expect(again.outcome).toEqual(done);
    expect(again.recordedNow).toBeUndefined();
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'completed', rounds: 1, asks: 0 });
  });

  it('never moves an exchange out of a final status', async () => {
    const exchange = exchangeInput();
    await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
    const workflowId = workflowIdFor(exchange.exchangeId);
    await store.recordEnding({
      exchangeId: exchange.exchangeId,
      round: 1,
      outcome: { kind: 'error', error: { code: -32012, message: 'cancelled' } },
    });
    await store.recordRound({ exchange, workflowId, round: 2, outcome: done });
    expect((await exchangeRow(exchange.exchangeId))?.status).toBe('cancelled');
  });

  it('records the rounds of an exchange started by an earlier release, whose input still carries its request digest', async () => {
    const exchange = { ...exchangeInput(), requestDigest: 'digest' } as ExchangeInput;
    const workflowId = workflowIdFor(exchange.exchangeId);
    await store.recordRound({ exchange, workflowId, round: 1, outcome: ask });
    // The transaction path too (a legacy round creates the row the same way).
    await store.recordRound({ exchange: { ...exchange, era: 'legacy' }, workflowId, round: 2, outcome: done });
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'completed', rounds: 2, asks: 1 });
  });

  it('creates the exchange row when the round is its first write', async () => {
    const exchange = exchangeInput();
    await store.recordRound({ exchange, workflowId: workflowIdFor(exchange.exchangeId), round: 1, outcome: ask });
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'running', rounds: 1, asks: 1 });
  });

  it("writes only what a round changes: the exchange's own columns stay as its first leg wrote them", async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const exchange = { ...exchangeInput(era), handlerVersion: 'tools@1' };
      const workflowId = workflowIdFor(exchange.exchangeId);
      await store.createExchange(exchange, workflowId);
      const later = { ...exchange, handlerVersion: 'tools@2', principal: 'someone-else' };
      await store.recordRound({ exchange: later, workflowId, round: 1, outcome: done });
      const { rows } = await pool.query('SELECT handler_version, principal, status FROM exchanges WHERE id = $1', [
        exchange.exchangeId,
      ]);
      expect(rows).toEqual([{ handler_version: 'tools@1', principal: 'anonymous', status: 'completed' }]);
    }
  });

  it('keeps the first of two writes racing to be the first of an exchange with no row, and announces it once', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const exchange = exchangeInput(era);
      const workflowId = workflowIdFor(exchange.exchangeId);
      const error = { kind: 'error' as const, error: { code: -32001, message: 'expired' } };
      let records: RoundRecord[] = [];
      const heard = await announcementsOf(exchange.exchangeId, async () => {
        records = await Promise.all([
          store.recordRound({ exchange, workflowId, round: 1, outcome: done }),
          store.recordRound({ exchange, workflowId, round: 1, outcome: error }),
        ]);
      });
      expect(records.filter((record) => record.recordedNow)).toHaveLength(1);
      expect(records[0]!.outcome).toEqual(records[1]!.outcome);
      expect(heard).toHaveLength(1);
      expect(await exchangeRow(exchange.exchangeId)).toMatchObject({ rounds: 1, asks: 0 });
    }
  });

  it('announces a recorded round once, at commit, carrying its record, and a repeated write not at all', async () => {
    const exchange = exchangeInput();
    await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
    const workflowId = workflowIdFor(exchange.exchangeId);
    const heard = await announcementsOf(exchange.exchangeId, async () => {
      await store.recordRound({ exchange, workflowId, round: 1, outcome: ask, deadlineAt: new Date() });
      await store.recordRound({ exchange, workflowId, round: 1, outcome: done });
    });
    expect(heard.map((payload) => payload.split('\n')[0])).toEqual([`${exchange.exchangeId}:1`]);
    expectCarried(heard[0]!, (await store.readRound(exchange.exchangeId, 1))!);
  });
});

/** The payloads announced on OUTCOME_CHANNEL for `exchangeId` while `work` runs. */
async function announcementsOf(exchangeId: string, work: () => Promise<void>): Promise<string[]> {
  const listener = new Client({ connectionString: readStackInfo().databaseUrl });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (message) => {
    if (message.payload?.startsWith(exchangeId)) heard.push(message.payload);
  });
  try {
    await listener.query(`LISTEN ${OUTCOME_CHANNEL}`);
    await work();
    await listener.query('SELECT 1'); // notifications sent before this answer have arrived
    return heard;
  } finally {
    await listener.end();
  }
}

/** The announcement carries exactly what a read of the round gives. */
function expectCarried(payload: string, read: RoundRecord): void {
  const [key, body] = [payload.slice(0, payload.indexOf('\n')), payload.slice(payload.indexOf('\n') + 1)];
  expect(key).toBe(`${read.exchangeId}:${read.round}`);
  expect(decodeAnnouncedRound(read.exchangeId, read.round, body)).toStrictEqual(read);
}

describe('announcements', () => {
  it('carry the record of a round recorded in a transaction (legacy era, an ending) too', async () => {
    const exchange = exchangeInput('legacy');
    const workflowId = workflowIdFor(exchange.exchangeId);
    const heard = await announcementsOf(exchange.exchangeId, async () => {
      await store.recordRound({ exchange, workflowId, round: 1, outcome: ask, answersDigest: 'd1' });
      await store.recordEnding({
        exchangeId: exchange.exchangeId,
        round: 2,
        outcome: { kind: 'error', error: { code: -32001, message: 'expired', data: { round: 2 } } },
      });
    });
    expect(heard).toHaveLength(2);
    expectCarried(heard[0]!, (await store.readRound(exchange.exchangeId, 1))!);
    expectCarried(heard[1]!, (await store.readRound(exchange.exchangeId, 2))!);
  });

  it('carry only the key when the record would not fit a NOTIFY payload, which the waiting leg then reads', async () => {
    const exchange = exchangeInput();
    const big = { kind: 'complete' as const, result: { content: [{ type: 'text', text: 'x'.repeat(8_000) }] } };
    const heard = await announcementsOf(exchange.exchangeId, async () => {
      await store.recordRound({ exchange, workflowId: workflowIdFor(exchange.exchangeId), round: 1, outcome: big });
    });
    expect(heard).toEqual([`${exchange.exchangeId}:1`]);
    expect((await store.readRound(exchange.exchangeId, 1))?.outcome).toEqual(big);
  });

  it('keep what a read gives for a record just under the limit, and for text beyond ASCII', async () => {
    const exchange = exchangeInput();
    // Multi-byte characters: the limit is on bytes, not characters.
    const text = 'é'.repeat(3_800);
    const outcome = { kind: 'complete' as const, result: { content: [{ type: 'text', text }] } };
    const heard = await announcementsOf(exchange.exchangeId, async () => {
      await store.recordRound({ exchange, workflowId: workflowIdFor(exchange.exchangeId), round: 1, outcome });
    });
    expect(heard).toHaveLength(1);
    expect(Buffer.byteLength(heard[0]!)).toBeLessThan(8_000);
    expectCarried(heard[0]!, (await store.readRound(exchange.exchangeId, 1))!);
  });
});

describe('the running-exchange budget', () => {
  const runningRows = async () =>
    Number(
      (await pool.query<{ n: string }>("SELECT count(*) AS n FROM exchanges WHERE status = 'running'")).rows[0]!.n,
    );

  it('is checked against exact counts in the statement that opens an exchange', async () => {
    const before = await store.countRunning();
    expect(before).toBe(await runningRows());
    const [a, b] = [exchangeInput(), exchangeInput()];
    expect(await store.createExchange(a, workflowIdFor(a.exchangeId), before + 1)).toBe('room');
    expect(await store.countRunning()).toBe(before + 1);
    // Full: nothing is written.
    expect(await store.createExchange(b, workflowIdFor(b.exchangeId), before + 1)).toBe('full');
    expect(await exchangeRow(b.exchangeId)).toBeUndefined();
    // An ask keeps it running; its ending makes room.
    await store.recordRound({ exchange: a, workflowId: workflowIdFor(a.exchangeId), round: 1, outcome: ask });
    expect(await store.countRunning()).toBe(before + 1);
    await store.recordRound({ exchange: a, workflowId: workflowIdFor(a.exchangeId), round: 2, outcome: done });
    expect(await store.countRunning()).toBe(before);
    expect(await store.createExchange(b, workflowIdFor(b.exchangeId), before + 1)).toBe('room');
    // A repeat changes nothing; an exchange whose workflow never started is forgotten, and uncounted.
    expect(await store.createExchange(b, workflowIdFor(b.exchangeId))).toBe('room');
    expect(await store.countRunning()).toBe(before + 1);
    await store.forgetUnstarted(b.exchangeId);
    expect(await store.countRunning()).toBe(before);
    expect(await store.countRunning()).toBe(await runningRows());
  });

  it('counts whatever writes the rows: endings in transactions, rows created by a first round, deletions', async () => {
    const before = await store.countRunning();
    const legacy = exchangeInput('legacy');
    await store.recordRound({ exchange: legacy, workflowId: workflowIdFor(legacy.exchangeId), round: 1, outcome: ask });
    const modern = exchangeInput();
    await store.recordRound({ exchange: modern, workflowId: workflowIdFor(modern.exchangeId), round: 1, outcome: ask });
    expect(await store.countRunning()).toBe(before + 2);
    await store.recordEnding({
      exchangeId: legacy.exchangeId,
      round: 2,
      outcome: { kind: 'error', error: { code: -32012, message: 'cancelled' } },
    });
    expect(await store.countRunning()).toBe(before + 1);
    await pool.query('DELETE FROM exchanges WHERE id = $1', [modern.exchangeId]);
    expect(await store.countRunning()).toBe(before);
    expect(await store.countRunning()).toBe(await runningRows());
  });

  it('lets a flood through by at most one exchange per statement running beside it', async () => {
    const before = await store.countRunning();
    const flood = Array.from({ length: 12 }, () => exchangeInput());
    const opened = await Promise.all(
      flood.map((x) => store.createExchange(x, workflowIdFor(x.exchangeId), before + 3)),
    );
    const admitted = opened.filter((room) => room === 'room').length;
    // This pool has two connections: at most two statements read the counts at once.
    expect(admitted).toBeGreaterThanOrEqual(3);
    expect(admitted).toBeLessThanOrEqual(3 + 1);
    expect(await store.countRunning()).toBe(before + admitted);
    expect(await store.countRunning()).toBe(await runningRows());
    for (const x of flood) await store.forgetUnstarted(x.exchangeId);
    expect(await store.countRunning()).toBe(before);
  });

  it("is checked for the exchange's principal too, in the same statement, and for it alone", async () => {
    const principal = `https://issuer.example|${randomUUID()}`;
    const mine = (n: number) => Array.from({ length: n }, () => ({ ...exchangeInput(), principal }));
    const [a, b, c] = mine(3);
    const room = (x: ExchangeInput) => store.createExchange(x, workflowIdFor(x.exchangeId), 1_000_000, 2);
    expect([await room(a!), await room(b!)]).toEqual(['room', 'room']);
    expect(await room(c!)).toBe('full-for-principal');
    expect(await exchangeRow(c!.exchangeId)).toBeUndefined();
    // Another principal still has room; the deployment's budget still comes first.
    const other = { ...exchangeInput(), principal: `https://issuer.example|${randomUUID()}` };
    expect(await room(other)).toBe('room');
    expect(await store.createExchange(c!, workflowIdFor(c!.exchangeId), 0, 2)).toBe('full');
    // An ending makes room for the principal again.
    await store.recordRound({ exchange: a!, workflowId: workflowIdFor(a!.exchangeId), round: 1, outcome: done });
    expect(await room(c!)).toBe('room');
    for (const x of [b!, c!, other]) await store.forgetUnstarted(x.exchangeId);
  });
});

describe('createOrJoinExchange (a repeated call joins the first)', () => {
  const mine = (principal: string) => ({ ...exchangeInput(), principal });
  const open = (x: ExchangeInput, identity: Parameters<typeof store.createOrJoinExchange>[2]) =>
    store.createOrJoinExchange(x, workflowIdFor(x.exchangeId), identity, 1_000_000, 1_000_000);

  it('starts one exchange of eight identical calls racing each other; the others join it', async () => {
    const principal = `p-${randomUUID()}`;
    const racers = Array.from({ length: 8 }, () => mine(principal));
    const rooms = await Promise.all(racers.map((x) => open(x, { digest: 'same', reattachWindowMs: 60_000 })));
    const started = racers.filter((_, i) => rooms[i] === 'room');
    expect(started).toHaveLength(1);
    expect(rooms.filter((r) => r !== 'room')).toEqual(Array(7).fill({ joins: started[0]!.exchangeId, sameCall: true }));
    // Another caller's identical call, and another call of this caller's, are their own.
    expect(await open(mine(`q-${randomUUID()}`), { digest: 'same', reattachWindowMs: 60_000 })).toBe('room');
    expect(await open(mine(principal), { digest: 'other', reattachWindowMs: 60_000 })).toBe('room');
    // Once it ended, an identical call starts anew; without a window, it always does.
    await store.recordRound({
      exchange: started[0]!,
      workflowId: workflowIdFor(started[0]!.exchangeId),
      round: 1,
      outcome: done,
    });
    expect(await open(mine(principal), { digest: 'same', reattachWindowMs: 60_000 })).toBe('room');
    expect(await open(mine(principal), { digest: 'same' })).toBe('room');
  });

  it('lets an identical call past the window start anew, and the call after it join the new one', async () => {
    const principal = `p-${randomUUID()}`;
    const old = mine(principal);
    expect(await open(old, { digest: 'd', reattachWindowMs: 60_000 })).toBe('room');
    await pool.query(`UPDATE exchanges SET created_at = now() - interval '2 minutes' WHERE id = $1`, [old.exchangeId]);
    const fresh = mine(principal);
    expect(await open(fresh, { digest: 'd', reattachWindowMs: 60_000 })).toBe('room');
    expect(await open(mine(principal), { digest: 'd', reattachWindowMs: 60_000 })).toEqual({
      joins: fresh.exchangeId,
      sameCall: true,
    });
  });

  it('joins by idempotency key whatever the status, and says when the key came with another call', async () => {
    const principal = `p-${randomUUID()}`;
    const first = mine(principal);
    expect(await open(first, { digest: 'd', idempotencyKey: 'k' })).toBe('room');
    await store.recordRound({ exchange: first, workflowId: workflowIdFor(first.exchangeId), round: 1, outcome: done });
    expect(await open(mine(principal), { digest: 'd', idempotencyKey: 'k' })).toEqual({
      joins: first.exchangeId,
      sameCall: true,
    });
    expect(await open(mine(principal), { digest: 'e', idempotencyKey: 'k' })).toEqual({
      joins: first.exchangeId,
      sameCall: false,
    });
    // Keys are the caller's own.
    expect(await open(mine(`q-${randomUUID()}`), { digest: 'd', idempotencyKey: 'k' })).toBe('room');
  });
});

describe('appendEvent', () => {
  it("appends a round's notifications in order, creating the exchange row when one is its first write", async () => {
    const exchange = exchangeInput();
    const workflowId = workflowIdFor(exchange.exchangeId);
    await store.appendEvent(exchange, workflowId, 1, { kind: 'progress', progress: 1 });
    expect(await exchangeRow(exchange.exchangeId)).toEqual({ status: 'running', rounds: 0, asks: 0 });
    await store.appendEvent(exchange, workflowId, 1, { kind: 'progress', progress: 2 });
    const events = await store.readEvents(exchange.exchangeId, 1, 0);
    expect(events.map(({ event }) => event)).toEqual([
      { kind: 'progress', progress: 1 },
      { kind: 'progress', progress: 2 },
    ]);
  });
});

describe('startRound (a local round, before its handler runs)', () => {
  it('counts each start while the round has no record, then returns the record and counts no more', async () => {
    const exchange = exchangeInput();
    await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
    expect(await store.startRound(exchange.exchangeId, 1)).toEqual({ starts: 1 });
    expect(await store.startRound(exchange.exchangeId, 1)).toEqual({ starts: 2 });
    await store.recordRound({ exchange, workflowId: workflowIdFor(exchange.exchangeId), round: 1, outcome: done });
    expect(await store.startRound(exchange.exchangeId, 1)).toEqual({
      recorded: expect.objectContaining({ round: 1, outcome: done }),
    });
    const { rows } = await pool.query('SELECT starts FROM exchange_round_starts WHERE exchange_id = $1', [
      exchange.exchangeId,
    ]);
    expect(rows).toEqual([{ starts: 2 }]);
  });
});
