/**
 * `approve_refund`: a person on the refund desk signs off each refund; one over the desk's limit
 * needs a manager too. Two rounds for a small refund, three for a large one. Who approved first is
 * carried to the manager's round in the handler's own state, sealed by the service. Typed by its
 * zod schemas: the arguments, both approvals' answers and the state.
 */
import * as z from 'zod/v4';
import { ask, defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

/** Refunds above this need a manager's approval as well. */
export const DESK_LIMIT = 100;

const approval = ask.form(
  z.object({
    approve: z.boolean().describe('Approve the refund'),
    approver: z.string().min(1).describe('Your name'),
  }),
);

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export const approveRefund = defineTool({
  tool: {
    name: 'approve_refund',
    description: 'Refunds an order once the refund desk (and, above the desk limit, a manager) approves it.',
    inputSchema: z.strictObject({ order: z.string().regex(/^[A-Z]-[0-9]+$/), amount: z.number().positive() }),
  },
  asks: { desk: approval, manager: approval },
  state: z.object({ deskApprover: z.string() }),
  taskSupport: 'optional',
  run({ order, amount }, ctx) {
    const desk = inputResponse(ctx.inputResponses, 'desk');
    const manager = inputResponse(ctx.inputResponses, 'manager');
    const refused = (answer: typeof desk) =>
      answer.kind === 'invalid' ||
      (answer.kind === 'elicit' && (answer.action !== 'accept' || !answer.content.approve));

    if (refused(desk) || refused(manager)) return text(`Refund of ${amount} on ${order} declined.`);
    if (manager.kind === 'elicit' && manager.action === 'accept')
      return text(
        `Refunded ${amount} on ${order}, approved by ${ctx.state?.deskApprover} and ${manager.content.approver}.`,
      );
    if (desk.kind !== 'elicit' || desk.action !== 'accept')
      return inputRequired({
        inputRequests: { desk: approval.request({ message: `Refund ${amount} on order ${order}?` }) },
      });
    if (amount <= DESK_LIMIT) return text(`Refunded ${amount} on ${order}, approved by ${desk.content.approver}.`);
    // Side effects come after the last ask: nothing above this line changes anything.
    return inputRequired({
      inputRequests: {
        manager: approval.request({
          message: `${desk.content.approver} approved a refund of ${amount} on order ${order}, above ${DESK_LIMIT}. Approve?`,
        }),
      },
      requestState: ctx.keepState({ deskApprover: desk.content.approver }),
    });
  },
});
