import type { PendingOn } from '../../../../lib/questions/pending-result';
import { deliverUntilPending, type PendingCall } from './pending-call';
import type { SseWriter } from './sse-writer';
import type { DeliveryEnd } from './stream-delivery';

/** An SSE writer that keeps what it is sent. */
function recordingSse() {
  const sent: Array<{ message: Record<string, unknown>; eventId?: number }> = [];
  let lastEventId: number | undefined;
  const sse = {
    write(message: object, eventId?: number) {
      sent.push({ message: message as Record<string, unknown>, ...(eventId !== undefined ? { eventId } : {}) });
      if (eventId !== undefined) lastEventId = eventId;
    },
    closed: false,
    get lastEventId() {
      return lastEventId;
    },
  } as unknown as SseWriter;
  return { sse, sent };
}

const pending: PendingCall = { afterMs: 20, tool: 'refund', repeatReattaches: true, respondTo: 7 };
const waiting: PendingOn = { waitingFor: 'Waiting for an answer from a holder of refunds:approve' };

/** A delivery that writes event 5, then waits until stopped, or ends 'final' after `finalAfterMs`. */
function delivery(sse: SseWriter, finalAfterMs?: number) {
  const calls: number[] = [];
  const deliver = (afterId: number, stop: AbortSignal) =>
    new Promise<DeliveryEnd>((resolve) => {
      calls.push(afterId);
      if (afterId < 5) sse.write({ jsonrpc: '2.0', id: 'srq-1', method: 'elicitation/create' }, 5);
      if (finalAfterMs !== undefined)
        setTimeout(() => {
          sse.write({ jsonrpc: '2.0', id: 7, result: { content: [] } }, 6);
          resolve('final');
        }, finalAfterMs);
      stop.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
  return { deliver, calls };
}

describe('deliverUntilPending', () => {
  it('answers a call still waiting with the pending result, once, after detaching it through what it wrote', async () => {
    const { sse, sent } = recordingSse();
    const { deliver } = delivery(sse);
    const detached: Array<[string, number]> = [];
    const end = await deliverUntilPending(
      { detach: async (id, through) => (detached.push([id, through]), true), waitingOn: async () => waiting },
      'ex-1',
      deliver,
      0,
      sse,
      new AbortController().signal,
      pending,
    );
    expect(end).toBe('final');
    expect(detached).toEqual([['ex-1', 5]]);
    const responses = sent.filter((s) => 'result' in s.message);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.message).toMatchObject({
      id: 7,
      result: { isError: true, _meta: { 'io.durable-mcp/pending': { handle: 'ex-1', tool: 'refund' } } },
    });
  });

  it('goes on delivering from where it stopped when the response was recorded first: the response, never the pending result', async () => {
    const { sse, sent } = recordingSse();
    let first = true;
    const { deliver, calls } = delivery(sse);
    const resumed = (afterId: number, stop: AbortSignal) => {
      if (first) return ((first = false), deliver(afterId, stop));
      return delivery(sse, 0).deliver(afterId, stop);
    };
    const end = await deliverUntilPending(
      { detach: async () => false, waitingOn: async () => waiting },
      'ex-1',
      resumed,
      0,
      sse,
      new AbortController().signal,
      pending,
    );
    expect(end).toBe('final');
    expect(calls).toEqual([0]);
    expect(sent.map((s) => s.eventId)).toEqual([5, 6]);
    expect(sent.filter((s) => 'result' in s.message)).toEqual([
      { message: expect.objectContaining({ id: 7 }), eventId: 6 },
    ]);
  });

  it('detaches nothing when the call ends in time, or when its client left', async () => {
    const detach = jest.fn(async () => true);
    const { sse } = recordingSse();
    const ended = await deliverUntilPending(
      { detach, waitingOn: async () => waiting },
      'ex-1',
      delivery(sse, 1).deliver,
      0,
      sse,
      new AbortController().signal,
      { ...pending, afterMs: 1_000 },
    );
    expect(ended).toBe('final');
    const left = new AbortController();
    const leaving = deliverUntilPending(
      { detach, waitingOn: async () => waiting },
      'ex-1',
      delivery(sse).deliver,
      0,
      sse,
      left.signal,
      { ...pending, afterMs: 1_000 },
    );
    left.abort();
    expect(await leaving).toBe('stopped');
    expect(detach).not.toHaveBeenCalled();
  });

  it('still answers when what the call waits on cannot be read', async () => {
    const { sse, sent } = recordingSse();
    await deliverUntilPending(
      { detach: async () => true, waitingOn: async () => Promise.reject(new Error('Temporal unreachable')) },
      'ex-1',
      delivery(sse).deliver,
      0,
      sse,
      new AbortController().signal,
      pending,
    );
    expect(sent.at(-1)!.message).toMatchObject({ id: 7, result: { isError: true } });
  });
});
