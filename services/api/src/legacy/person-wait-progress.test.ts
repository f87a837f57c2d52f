// Pins which server-to-client requests keep a call reminded, what the reminder says, and that the
// reminders stop once the request is settled or the stream ends.
import type { LegacyCall, OpenRequest } from '../../../../lib/db/legacy-store';
import { reverseRequestId } from '../../../../lib/protocol/reverse-request-id';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import { personWaitMessage, questionWaitOf, remindWhilePeopleAnswer } from './person-wait-progress';
import type { SseWriter } from './sse-writer';

const requestId = reverseRequestId('00000000-0000-4000-8000-000000000001', 1, 'approver');
const elicit = { jsonrpc: '2.0', id: requestId, method: 'elicitation/create', params: { message: 'Who approves?' } };

describe('personWaitMessage', () => {
  it('names what a form, a URL-mode elicitation and a sampling request wait for', () => {
    expect(personWaitMessage(elicit)).toBe('Waiting for the user to answer: Who approves?');
    expect(
      personWaitMessage({ ...elicit, params: { mode: 'url', message: 'Sign', url: 'https://pages.example/q/1' } }),
    ).toBe('Waiting for the user to complete https://pages.example/q/1');
    expect(personWaitMessage({ ...elicit, method: 'sampling/createMessage', params: { messages: [] } })).toBe(
      'Waiting for the user to review a sampling request',
    );
  });

  it('is nothing for roots/list (the client answers it alone), notifications and responses', () => {
    expect(personWaitMessage({ ...elicit, method: 'roots/list', params: undefined })).toBeUndefined();
    expect(personWaitMessage({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })).toBeUndefined();
    expect(personWaitMessage({ jsonrpc: '2.0', id: 7, result: {} })).toBeUndefined();
    // A client's own request id is never the server's request.
    expect(personWaitMessage({ ...elicit, id: 7 })).toBeUndefined();
  });
});

describe('remindWhilePeopleAnswer', () => {
  const EVERY_MS = 20;
  const call: LegacyCall = {
    sessionId: 's1',
    requestId: '3',
    requestIdJson: 3,
    exchangeId: '00000000-0000-4000-8000-000000000001',
    streamId: 'st',
    progressToken: 'tok',
  };

  /** `progressToken` null: the call sent none. */
  function setUp(progressToken: string | number | null = 'tok') {
    let status: 'open' | 'answered' = 'open';
    let questionAnswered = false;
    const written: Array<{ message: Record<string, unknown>; eventId?: number }> = [];
    const sse = {
      write: (message: object, eventId?: number) =>
        written.push({ message: message as Record<string, unknown>, eventId }),
      closed: false,
    } as unknown as SseWriter;
    const request: OpenRequest = {
      id: requestId,
      sessionId: 's1',
      exchangeId: call.exchangeId,
      round: 1,
      key: 'approver',
      message: elicit,
    };
    const legacy = {
      findRequest: async (_session: string, id: string) => (id === requestId ? { ...request, status } : undefined),
      callOfExchange: async () => ({
        ...call,
        ...(progressToken === null ? { progressToken: undefined } : { progressToken }),
      }),
    };
    const stop = new AbortController();
    // The round after the question's (round 1) is recorded once it is answered.
    const exchanges = {
      readRound: async (exchangeId: string, round: number) =>
        questionAnswered && exchangeId === call.exchangeId && round === 2
          ? ({ exchangeId, round } as Awaited<ReturnType<ExchangeStore['readRound']>>)
          : undefined,
    };
    const writer = remindWhilePeopleAnswer({ legacy, exchanges }, 's1', sse, EVERY_MS, stop.signal);
    const progress = () =>
      written.filter((w) => w.message.method === 'notifications/progress').map((w) => w.message.params);
    return {
      writer,
      written,
      progress,
      stop,
      answer: () => (status = 'answered'),
      answerQuestion: () => (questionAnswered = true),
    };
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('passes every message through with its event id, then reminds while the request is open, counting up', async () => {
    const { writer, written, progress, stop, answer } = setUp();
    writer.write(elicit, 41);
    expect(written[0]).toEqual({ message: elicit, eventId: 41 });
    await sleep(EVERY_MS * 5);
    const open = progress();
    expect(open.length).toBeGreaterThanOrEqual(2);
    expect(open[0]).toEqual({
      progressToken: 'tok',
      progress: 1,
      message: 'Waiting for the user to answer: Who approves?',
    });
    expect(open.map((p) => (p as { progress: number }).progress)).toEqual(open.map((_p, i) => i + 1));
    answer();
    await sleep(EVERY_MS * 3);
    const settled = progress().length;
    await sleep(EVERY_MS * 4);
    expect(progress().length).toBe(settled); // none once the request was answered
    stop.abort();
  });

  it('stops when the stream stops', async () => {
    const { writer, progress, stop } = setUp();
    writer.write(elicit, 1);
    stop.abort();
    await sleep(EVERY_MS * 4);
    expect(progress()).toEqual([]);
  });

  it('says nothing to a call without a progress token, nor for a request to no person', async () => {
    const quiet = setUp(null);
    quiet.writer.write(elicit, 1);
    const roots = setUp();
    roots.writer.write({ jsonrpc: '2.0', id: requestId, method: 'roots/list' }, 1);
    await sleep(EVERY_MS * 4);
    expect(quiet.progress()).toEqual([]);
    expect(roots.progress()).toEqual([]);
    quiet.stop.abort();
    roots.stop.abort();
  });

  it('reminds while a question addressed to someone else waits, until the round after it is recorded', async () => {
    const { writer, written, progress, stop, answerQuestion } = setUp();
    const announced = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1, message: 'Waiting for an answer from a member of finance' },
    };
    writer.write(announced, 7, `questions:${call.exchangeId}:1`);
    expect(written[0]).toEqual({ message: announced, eventId: 7 });
    await sleep(EVERY_MS * 5);
    const reminders = progress().slice(1);
    expect(reminders.length).toBeGreaterThanOrEqual(2);
    expect(reminders[0]).toMatchObject({
      progressToken: 'tok',
      message: 'Waiting for an answer from a member of finance',
    });
    answerQuestion();
    await sleep(EVERY_MS * 3);
    const settled = progress().length;
    await sleep(EVERY_MS * 4);
    expect(progress().length).toBe(settled);
    stop.abort();
  });

  it('reads a question wait only from its own stream key, with a token and a message', () => {
    const message = { method: 'notifications/progress', params: { progressToken: 3, message: 'Waiting' } };
    expect(questionWaitOf(message, 'questions:ex-1:4')).toEqual({
      exchangeId: 'ex-1',
      round: 4,
      progressToken: 3,
      message: 'Waiting',
    });
    expect(questionWaitOf(message, 'request:ex-1')).toBeUndefined();
    expect(questionWaitOf(message, undefined)).toBeUndefined();
    expect(
      questionWaitOf({ method: 'notifications/progress', params: { message: 'x' } }, 'questions:e:1'),
    ).toBeUndefined();
  });
});
