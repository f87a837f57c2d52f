// Pins the out-of-band confirmation demo: the question is the caller's own, the transfer is made
// only when the digits match, and a decline from the caller's client makes none.
import { testContext } from '@durable-mcp/testing';
import { confirmTransfer } from './confirm-transfer';

const args = { account: 'DE0012345678', amount: 250 };
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const answered = (confirmation: Record<string, unknown>, via = 'page') =>
  testContext({
    inputResponses: { confirmation },
    answeredBy: {
      confirmation: [{ principal: { id: 'p', subject: 'pat' }, at: 0, via: via as 'page', action: 'accept' }],
    },
  });

describe('confirm_transfer', () => {
  it('asks the caller themself, for the last four digits of the account', async () => {
    const first = (await confirmTransfer.run(args, testContext())) as unknown as {
      inputRequests: { confirmation: { addressedTo: unknown; params: { message: string } } };
    };
    expect(first.inputRequests.confirmation.addressedTo).toEqual({ anyOf: [{ caller: true }], waitMs: 900_000 });
    expect(first.inputRequests.confirmation.params.message).toContain('ending 5678');
  });

  it('transfers only when the digits match, and never on a decline', async () => {
    expect(
      textOf(await confirmTransfer.run(args, answered({ action: 'accept', content: { lastDigits: '5678' } }))),
    ).toBe('Transferred 250 to the account ending 5678.');
    expect(
      textOf(await confirmTransfer.run(args, answered({ action: 'accept', content: { lastDigits: '0000' } }))),
    ).toBe('Transfer not made: the digits did not match the account.');
    expect(textOf(await confirmTransfer.run(args, answered({ action: 'decline' }, 'client')))).toBe(
      'Transfer not made: decline (via client).',
    );
  });
});
