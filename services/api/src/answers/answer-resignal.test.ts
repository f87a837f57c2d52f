import pino from 'pino';
import type { QuestionAnswer } from '../../../../lib/questions/question';
import { startAnswerResignal } from './answer-resignal';

const answerOf = (answerId: string): QuestionAnswer => ({
  round: 1,
  key: 'approval',
  answerId,
  response: { action: 'accept', content: {} },
  by: { id: 'dana', subject: 'dana', scopes: [], groups: [] },
  via: 'api',
  sentAt: 0,
});

/** Claimed answers in memory, as the store keeps them: unsignalled until marked, out of the batch while a failure's wait runs. */
function claimedAnswers(ids: string[]) {
  const rows = ids.map((id) => ({ id, exchangeId: `ex-${id}`, signalled: false, failures: 0, retryInMs: 0 }));
  return {
    rows,
    questions: {
      unsignalled: async () =>
        rows
          .filter((r) => !r.signalled && r.retryInMs === 0)
          .map((r) => ({ exchangeId: r.exchangeId, answer: answerOf(r.id), signalFailures: r.failures })),
      signalFailed: async (id: string, retryInMs: number) => {
        const row = rows.find((r) => r.id === id)!;
        row.failures += 1;
        row.retryInMs = retryInMs;
      },
    },
    mark: (id: string) => (rows.find((r) => r.id === id)!.signalled = true),
  };
}

describe('the re-signaller', () => {
  it('signals and marks every other answer of a batch when one signal fails, and records the failure', async () => {
    const store = claimedAnswers(['a1', 'a2', 'a3']);
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const { resignal, stop } = startAnswerResignal(
      {
        questions: store.questions,
        answering: {
          deliver: async (exchangeId, answer) => {
            if (exchangeId === 'ex-a2') throw new Error('payload refused');
            store.mark(answer.answerId);
          },
        },
        log,
      },
      { afterMs: 10_000 },
    );
    stop();
    expect(await resignal()).toEqual({ delivered: 2, failed: 1 });
    expect(store.rows.map((r) => [r.id, r.signalled, r.failures, r.retryInMs])).toEqual([
      ['a1', true, 0, 0],
      ['a2', false, 1, 10_000],
      ['a3', true, 0, 0],
    ]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        answerId: 'a2',
        exchangeId: 'ex-a2',
        failures: 1,
        retryInMs: 10_000,
        msg: 'signalling a claimed question answer failed; it will be tried again later',
      }),
    );
  });

  it('waits longer after each failure of the same answer', async () => {
    const store = claimedAnswers(['b1']);
    const { resignal, stop } = startAnswerResignal(
      {
        questions: store.questions,
        answering: {
          deliver: async () => {
            throw new Error('Temporal unreachable');
          },
        },
        log: pino({ level: 'silent' }),
      },
      { afterMs: 1_000 },
    );
    stop();
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      expect(await resignal()).toEqual({ delivered: 0, failed: 1 });
      waits.push(store.rows[0]!.retryInMs);
      // Due again: the store hands it back in the next batch.
      store.rows[0]!.retryInMs = 0;
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(store.rows[0]!.failures).toBe(4);
  });

  it('keeps going when recording a failure fails too', async () => {
    const store = claimedAnswers(['c1', 'c2']);
    const { resignal, stop } = startAnswerResignal(
      {
        questions: {
          ...store.questions,
          signalFailed: async () => {
            throw new Error('Postgres down');
          },
        },
        answering: {
          deliver: async (exchangeId, answer) => {
            if (exchangeId === 'ex-c1') throw new Error('refused');
            store.mark(answer.answerId);
          },
        },
        log: pino({ level: 'silent' }),
      },
      { afterMs: 1_000 },
    );
    stop();
    expect(await resignal()).toEqual({ delivered: 1, failed: 1 });
    expect(store.rows[1]!.signalled).toBe(true);
  });
});
