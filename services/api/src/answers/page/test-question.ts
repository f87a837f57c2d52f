/** A question and an answerer as the page tests render them. Test-only. */
import type { AnswererIdentity, QuestionView } from '../../../../../lib/questions/question';

export const NOW = Date.parse('2026-05-01T12:00:00Z');

export const answerer: AnswererIdentity = { id: 'p-ana', subject: 'ana', scopes: [], groups: [], name: 'Ana Ruiz' };

export function questionView(overrides: Partial<QuestionView> = {}): QuestionView {
  return {
    id: 'q-123',
    exchangeId: 'ex-1',
    round: 1,
    key: 'approval',
    method: 'tools/call',
    target: 'approve_refund',
    arguments: { order: 'A-17', amount: 120 },
    caller: { id: 'p-bob', subject: 'bob', issuer: 'https://id.example.com' },
    message: 'Refund order A-17?',
    requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
    addressing: { anyOf: [{ group: 'finance' }] },
    askedAt: NOW - 60_000,
    deadlineAt: NOW + 9 * 60_000,
    shownDigest: 'digest-1',
    status: 'waiting',
    answers: [],
    ...overrides,
  };
}
