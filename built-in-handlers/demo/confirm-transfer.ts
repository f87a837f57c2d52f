/**
 * A transfer the caller confirms out of band, as banks do: the question goes to the caller
 * themself (`answerer.caller()`), to be answered on the answer page, signed in on another device
 * (their phone), where they type the last four digits of the account the money goes to. A client
 * that takes URL-mode elicitations is sent a link to that page; the page takes the answer only
 * from the same person. The transfer is made only after the last ask, so a re-execution never
 * pays twice.
 */
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse } from '@durable-mcp/handlers';

const FIFTEEN_MINUTES_MS = 15 * 60_000;

export const confirmTransfer = defineTool({
  tool: {
    name: 'confirm_transfer',
    title: 'Transfer money (the caller confirms it on another device)',
    description:
      'Asks the caller to confirm the transfer on the answer page, on another device, typing the last four digits of the account; then makes it.',
    inputSchema: {
      type: 'object',
      properties: {
        account: { type: 'string', pattern: '^[A-Z0-9]{8,34}$', description: 'The account number or IBAN' },
        amount: { type: 'number', exclusiveMinimum: 0 },
      },
      required: ['account', 'amount'],
    },
  },
  taskSupport: 'optional',
  run(args, ctx) {
    const { account, amount } = args as { account: string; amount: number };
    const confirmation = inputResponse(ctx.inputResponses, 'confirmation');
    if (confirmation.kind !== 'elicit')
      return inputRequired({
        inputRequests: {
          confirmation: elicitFrom(
            { anyOf: [answerer.caller()], waitMs: FIFTEEN_MINUTES_MS },
            {
              message: `Confirm the transfer of ${amount} to the account ending ${account.slice(-4)}: type those last four digits.`,
              requestedSchema: {
                type: 'object',
                properties: {
                  lastDigits: { type: 'string', title: 'Last four digits of the account', minLength: 4, maxLength: 4 },
                },
                required: ['lastDigits'],
              },
            },
          ),
        },
      });
    const via = ctx.answeredBy?.confirmation?.[0]?.via;
    if (confirmation.action !== 'accept')
      return { content: [{ type: 'text', text: `Transfer not made: ${confirmation.action} (via ${via}).` }] };
    if (confirmation.content?.lastDigits !== account.slice(-4))
      return { content: [{ type: 'text', text: 'Transfer not made: the digits did not match the account.' }] };
    ctx.log.info({ amount, account: `…${account.slice(-4)}` }, 'transfer made');
    return { content: [{ type: 'text', text: `Transferred ${amount} to the account ending ${account.slice(-4)}.` }] };
  },
});
