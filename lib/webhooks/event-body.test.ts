import { eventBody } from './event-body';
import { questionEvent } from './question-event';
import { TEST_QUESTION as VIEW } from './test-question';

const event = (message: string) =>
  questionEvent('question.waiting', { ...VIEW, message }, { url: 'https://mcp.example/q', occurredAt: 0 });

describe('eventBody', () => {
  it('is the event as JSON when it fits', () => {
    expect(eventBody(event('Refund?'), 4096)).toBe(JSON.stringify(event('Refund?')));
  });

  it('shortens a long message, ending in an ellipsis, to fit the bound in UTF-8 bytes', () => {
    for (const message of ['x'.repeat(10_000), 'é"\\'.repeat(3_000), '😀'.repeat(2_000)]) {
      const body = eventBody(event(message), 2048)!;
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(2048);
      expect(Buffer.byteLength(body)).toBeGreaterThan(2030);
      const shortened = (JSON.parse(body) as ReturnType<typeof event>).question.message;
      expect(shortened.endsWith('…')).toBe(true);
      expect(message.startsWith(shortened.slice(0, -1))).toBe(true);
    }
  });

  it('is undefined when even an empty message cannot fit', () => {
    expect(eventBody(event('Refund?'), 100)).toBeUndefined();
  });
});
