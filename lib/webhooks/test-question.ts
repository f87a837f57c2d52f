/** A question as the service shows it, with arguments and a caller an event must never carry: for tests. */
import type { QuestionView } from '../questions/question';

export const TEST_QUESTION: QuestionView = {
  id: 'q_7fK2',
  exchangeId: 'ex-1',
  round: 2,
  key: 'approval',
  method: 'tools/call',
  target: 'approve_refund',
  arguments: { order: 'A-17', card: '4111 1111 1111 1111' },
  caller: { id: 'p1', subject: 'alice' },
  message: 'Approve this refund?',
  requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
  addressing: { anyOf: [{ group: 'finance' }], remindAfterMs: 60_000 },
  askedAt: Date.UTC(2026, 0, 1, 12),
  deadlineAt: Date.UTC(2026, 0, 1, 12, 10),
  shownDigest: 'd1',
  status: 'answered',
  answers: [
    {
      by: { id: 'p2', subject: 'bob', name: 'Bob', scopes: ['refunds'], groups: ['finance'] },
      at: Date.UTC(2026, 0, 1, 12, 5),
      via: 'page',
      action: 'accept',
    },
  ],
};
