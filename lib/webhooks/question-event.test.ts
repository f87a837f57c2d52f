import { QUESTION_EVENT_TYPES, questionEvent, questionEventId } from './question-event';
import { TEST_QUESTION as VIEW } from './test-question';

describe('questionEvent', () => {
  const at = { url: 'https://mcp.example/questions/q_7fK2', occurredAt: Date.UTC(2026, 0, 1, 12, 5, 1) };

  it('tells a receiver what to route, in ISO times, with who answered', () => {
    expect(questionEvent('question.answered', VIEW, at)).toEqual({
      id: 'q_7fK2.answered',
      type: 'question.answered',
      occurredAt: '2026-01-01T12:05:01.000Z',
      question: {
        id: 'q_7fK2',
        url: 'https://mcp.example/questions/q_7fK2',
        exchangeId: 'ex-1',
        round: 2,
        key: 'approval',
        method: 'tools/call',
        target: 'approve_refund',
        message: 'Approve this refund?',
        addressees: { anyOf: [{ group: 'finance' }], remindAfterMs: 60_000 },
        deadlineAt: '2026-01-01T12:10:00.000Z',
        answeredBy: [
          { id: 'p2', subject: 'bob', name: 'Bob', at: '2026-01-01T12:05:00.000Z', via: 'page', action: 'accept' },
        ],
      },
    });
  });

  it("never carries the call's arguments, its caller, the schema or an answer's content", () => {
    const body = JSON.stringify(questionEvent('question.waiting', { ...VIEW, answers: [] }, at));
    for (const hidden of ['A-17', '4111', 'alice', 'requestedSchema', 'note', 'refunds', 'shownDigest'])
      expect(body).not.toContain(hidden);
    expect(body).not.toContain('answeredBy');
  });

  it('gives each type of a question one id, the same however often it is built', () => {
    const ids = QUESTION_EVENT_TYPES.map((type) => questionEventId('q_7fK2', type));
    expect(new Set(ids).size).toBe(QUESTION_EVENT_TYPES.length);
    expect(questionEvent('question.reminder', VIEW, at).id).toBe(
      questionEvent('question.reminder', VIEW, { ...at, occurredAt: at.occurredAt + 1 }).id,
    );
  });
});
