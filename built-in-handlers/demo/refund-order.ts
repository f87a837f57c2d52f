/**
 * A refund someone other than the caller must approve: the question goes to the refund approvers
 * (a group at the deployment's sign-in, or a bot holding `refunds:approve`), never to whoever
 * asked for the refund, who waits. They answer on the answer page or through the answer API, for
 * up to four hours; a reminder goes out after one, and finance leads may answer after two. The
 * refund is made only after the last ask, so a re-execution never pays twice.
 */
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse } from '@durable-mcp/handlers';

const HOUR_MS = 3_600_000;

export const refundOrder = defineTool({
  tool: {
    name: 'refund_order',
    title: 'Refund an order (an approver signs it off)',
    description:
      'Asks a refund approver (never the caller) to approve a refund, then makes it; runs as a task for clients that take one.',
    inputSchema: {
      type: 'object',
      properties: {
        order: { type: 'string', minLength: 1 },
        amount: { type: 'number', exclusiveMinimum: 0 },
        reason: { type: 'string', minLength: 1 },
      },
      required: ['order', 'amount', 'reason'],
    },
  },
  taskSupport: 'optional',
  run(args, ctx) {
    const { order, amount, reason } = args as { order: string; amount: number; reason: string };
    const decision = inputResponse(ctx.inputResponses, 'approval');
    if (decision.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(
            {
              anyOf: [answerer.group('refund-approvers'), answerer.scope('refunds:approve')],
              excludeCaller: true,
              waitMs: 4 * HOUR_MS,
              remindAfterMs: HOUR_MS,
              escalate: { afterMs: 2 * HOUR_MS, to: [answerer.group('finance-leads')] },
            },
            {
              message: `Refund ${amount} on order ${order} for ${ctx.principal.subject}? Reason given: ${reason}`,
              requestedSchema: {
                type: 'object',
                properties: { note: { type: 'string', title: 'Note for the customer', maxLength: 200 } },
              },
            },
          ),
        },
      });
    }
    const by = ctx.answeredBy?.approval?.[0]?.principal;
    const who = by?.name ?? by?.subject ?? 'an approver';
    if (decision.action !== 'accept')
      return {
        content: [{ type: 'text', text: `Refund of order ${order} not approved (${decision.action} by ${who}).` }],
      };
    ctx.log.info({ order, amount, approvedBy: by?.id }, 'refund made');
    const note =
      typeof decision.content?.note === 'string' && decision.content.note ? ` Note: ${decision.content.note}` : '';
    return { content: [{ type: 'text', text: `Refunded ${amount} on order ${order}, approved by ${who}.${note}` }] };
  },
});
