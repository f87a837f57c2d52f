/**
 * Following one leg, and one exchange, through the logs of the production processes: every line
 * the API logs while it serves a leg carries the leg's `reqId` (the caller's `X-Request-Id`,
 * echoed in the response, or one the API made) and, from the moment the leg names its exchange,
 * that `exchangeId`, down to the gateway's debug lines; the worker's lines about a round carry the
 * exchange and the round.
 */
import { randomUUID } from 'node:crypto';
import { isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { accept, rawCall } from '../support/raw-mcp';
import {
  stackProcessEnv,
  startApiProcess,
  startWorkerProcess,
  type ApiProcess,
  type WorkerProcess,
} from '../support/service-processes';

interface LogLine {
  msg: string;
  reqId?: string;
  exchangeId?: string;
  round?: number;
  [field: string]: unknown;
}

/** Every JSON line of a process's output (the rest, a stack trace say, is not a log line). */
function linesOf(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    try {
      return line.startsWith('{') ? [JSON.parse(line) as LogLine] : [];
    } catch {
      return [];
    }
  });
}

/** The lines `output()` has once `done` holds for them (or 10 s pass: the assertions then say what is missing). */
async function linesWhen(output: () => string, done: (lines: LogLine[]) => boolean): Promise<LogLine[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = linesOf(output());
    if (done(lines) || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A 2026-07-28 greet leg sent as `reqId`; resolves with the echoed id and the reply. */
async function greetLeg(url: string, reqId: string | undefined, extra: Record<string, unknown> = {}) {
  const headers: Record<string, string> = reqId !== undefined ? { 'x-request-id': reqId } : {};
  const reply = await rawCall(url, 'tools/call', { name: 'greet', arguments: {}, ...extra }, undefined, { headers });
  return { echoed: reply.headers!.get('x-request-id'), body: reply.body };
}

const messagesOf = (lines: LogLine[]) => [...new Set(lines.map((line) => line.msg))].sort();

describe('request ids on the log lines of a leg', () => {
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    const env = stackProcessEnv();
    [worker, api] = await Promise.all([startWorkerProcess(env), startApiProcess({ ...env, LOG_LEVEL: 'debug' })]);
  });
  afterAll(async () => {
    await api?.kill();
    await worker?.kill();
  });

  it('tags every line of a 2026-07-28 leg with its reqId and exchangeId, and the worker names each round', async () => {
    const [first, second] = [`first-${randomUUID()}`, `second-${randomUUID()}`];
    const ask = await greetLeg(api.url, first);
    expect(ask.echoed).toBe(first);
    expect(ask.body.result?.resultType).toBe('input_required');
    const answer = await greetLeg(api.url, second, {
      inputResponses: { name: accept({ name: 'Ada' }) },
      requestState: ask.body.result!.requestState,
    });
    expect(answer.echoed).toBe(second);
    expect(answer.body.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });

    const lines = await linesWhen(api.output, (all) =>
      [first, second].every((id) => all.some((line) => line.reqId === id && line.msg === 'request')),
    );
    const ofFirst = lines.filter((line) => line.reqId === first);
    const exchangeId = ofFirst.find((line) => line.msg === 'exchange started')?.exchangeId;
    expect(exchangeId).toMatch(/^[0-9a-f-]{36}$/);
    // Each leg's lines, from the edge (the access line) to the gateway (debug), name the exchange.
    expect(messagesOf(ofFirst)).toEqual(['exchange started', 'request', 'workflow started']);
    const ofSecond = lines.filter((line) => line.reqId === second);
    expect(messagesOf(ofSecond)).toEqual(['answers signalled', 'request', 'signal sent']);
    for (const line of [...ofFirst, ...ofSecond])
      expect({ msg: line.msg, exchangeId: line.exchangeId }).toEqual({
        msg: line.msg,
        exchangeId,
      });
    // And no line about the exchange is left without the leg it was logged for.
    const untagged = lines.filter((line) => line.exchangeId === exchangeId && ![first, second].includes(line.reqId!));
    expect(untagged).toEqual([]);
    // The access line is written once per request, with its id and exchange once each.
    const access = api
      .output()
      .split('\n')
      .find((line) => line.includes(`"reqId":"${second}"`) && line.includes('"msg":"request"'))!;
    expect(access.match(/"exchangeId"/g)).toHaveLength(1);
    expect(access.match(/"reqId"/g)).toHaveLength(1);

    // The worker's lines about the exchange each name its round.
    const rounds = await linesWhen(worker.output, (all) =>
      all.some((line) => line.exchangeId === exchangeId && line.msg === 'round recorded' && line.round === 2),
    );
    const ofExchange = rounds.filter((line) => line.exchangeId === exchangeId);
    expect(ofExchange.map((line) => `${line.msg} ${line.round}`)).toEqual(
      expect.arrayContaining(['round started 1', 'round recorded 1', 'round started 2', 'round recorded 2']),
    );
    expect(ofExchange.filter((line) => typeof line.round !== 'number')).toEqual([]);
  });

  it('tags the response POST of a legacy session with its reqId and the exchange it answers', async () => {
    const session = await LegacySession.open(api.url, { capabilities: { elicitation: {} } });
    try {
      const { id, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
      const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the ask of greet');
      const reqId = `answer-${randomUUID()}`;
      const response = await session.post(
        { jsonrpc: '2.0', id: ask.message.id, result: accept({ name: 'Turing' }) },
        { headers: { 'x-request-id': reqId } },
      );
      await response.body?.cancel();
      expect([response.status, response.headers.get('x-request-id')]).toEqual([202, reqId]);
      await stream.until((m) => isResponseTo(m, id), 'the result of greet');

      const lines = await linesWhen(api.output, (all) => all.some((l) => l.reqId === reqId && l.msg === 'request'));
      const ofAnswer = lines.filter((line) => line.reqId === reqId);
      expect(messagesOf(ofAnswer)).toEqual(['answer signalled', 'request', 'signal sent']);
      const exchangeId = ofAnswer.find((line) => line.msg === 'answer signalled')!.exchangeId;
      expect(exchangeId).toMatch(/^[0-9a-f-]{36}$/);
      expect(ofAnswer.filter((line) => line.exchangeId !== exchangeId)).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('gives a request without an id, or with one it cannot carry safely, a fresh UUID', async () => {
    for (const brought of [undefined, 'two words', 'x'.repeat(129)]) {
      const { echoed } = await greetLeg(api.url, brought);
      expect(echoed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const lines = await linesWhen(api.output, (all) => all.some((l) => l.reqId === echoed && l.msg === 'request'));
      expect(messagesOf(lines.filter((line) => line.reqId === echoed))).toEqual(
        expect.arrayContaining(['exchange started', 'request']),
      );
    }
  });
});
