// Pins the two-approval demo: both questions asked at once, nothing granted until both answered,
// one "no" enough to refuse, and its declaration as a task for clients that take one.
import { testContext } from '@durable-mcp/testing';
import { accessRequest } from './access-request';

const args = { service: 'billing', reason: 'incident 42', hours: 2 };
const decided = (approve: boolean) => ({ action: 'accept', content: { approve } });
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('request_access', () => {
  it('runs as a task for clients that take one', () => {
    expect(accessRequest.taskSupport).toBe('optional');
  });

  it('asks both approvers at once, and again while one has not answered', async () => {
    const first = (await accessRequest.run(args, testContext())) as { inputRequests: object };
    expect(Object.keys(first.inputRequests)).toEqual(['owner_approval', 'security_approval']);
    const half = (await accessRequest.run(
      args,
      testContext({ inputResponses: { owner_approval: decided(true) } }),
    )) as {
      resultType: string;
    };
    expect(half.resultType).toBe('input_required');
  });

  it('grants only when both approve; one refusal is enough to refuse', async () => {
    const both = { owner_approval: decided(true), security_approval: decided(true) };
    expect(textOf(await accessRequest.run(args, testContext({ inputResponses: both })))).toBe(
      'Access to billing granted for 2 h.',
    );
    const refused = { owner_approval: decided(true), security_approval: { action: 'decline' } };
    expect(textOf(await accessRequest.run(args, testContext({ inputResponses: refused })))).toBe(
      'Access to billing not granted: declined by security.',
    );
  });
});
