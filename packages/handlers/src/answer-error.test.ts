// Pins how a handler reads an error answer: only a JSON-RPC error shape counts.
import { answerError } from './answer-error';

describe('answerError', () => {
  it('reads a JSON-RPC error answer', () => {
    expect(answerError({ name: { error: { code: -32601, message: 'Method not found' } } }, 'name')).toEqual({
      code: -32601,
      message: 'Method not found',
    });
  });

  it('is undefined for a result, a missing key or a malformed error', () => {
    expect(answerError({ name: { action: 'accept', content: {} } }, 'name')).toBeUndefined();
    expect(answerError({}, 'name')).toBeUndefined();
    expect(answerError({ name: { error: { message: 'no code' } } }, 'name')).toBeUndefined();
  });
});
