/**
 * `approve_refund`: a person on the refund desk signs off each refund; one over the desk's limit
 * needs a manager too. Two rounds for a small refund, three for a large one. Who approved first is
 * carried to the manager's round in the handler's own state, sealed by the service.
 */
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

/** Refunds above this need a manager's approval as well. */
export const DESK_LIMIT = 100;

interface Approval {
  approve: boolean;
  approver: string;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** The approval answered under `key`, if it was accepted; `'declined'` if the person said no or closed the form. */
function approvalOf(responses: Record<string, unknown>, key: string): Approval | 'declined' | undefined {
  const answer = inputResponse(responses, key);
  if (answer.kind !== 'elicit') return undefined;
  if (answer.action !== 'accept') return 'declined';
  const content = answer.content as Partial<Approval> | undefined;
  return content?.approve === true && typeof content.approver === 'string'
    ? { approve: true, approver: content.approver }
    : 'declined';
}

const ask = (key: string, message: string, requestState?: string) =>
  inputRequired({
    inputRequests: {
      [key]: inputRequired.elicit({
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            approve: { type: 'boolean', title: 'Approve the refund' },
            approver: { type: 'string', title: 'Your name' },
          },
          required: ['approve', 'approver'],
        },
      }),
    },
    ...(requestState !== undefined ? { requestState } : {}),
  });

export const approveRefund = defineTool({
  tool: {
    name: 'approve_refund',
    description: 'Refunds an order once the refund desk (and, above the desk limit, a manager) approves it.',
    inputSchema: {
      type: 'object',
      properties: {
        order: { type: 'string', pattern: '^[A-Z]-[0-9]+$' },
        amount: { type: 'number', exclusiveMinimum: 0 },
      },
      required: ['order', 'amount'],
      additionalProperties: false,
    },
  },
  taskSupport: 'optional',
  run(args, ctx) {
    const { order, amount } = args as { order: string; amount: number };
    const desk = approvalOf(ctx.inputResponses, 'desk');
    const manager = approvalOf(ctx.inputResponses, 'manager');

    if (desk === 'declined' || manager === 'declined') return text(`Refund of ${amount} on ${order} declined.`);
    if (manager)
      return text(`Refunded ${amount} on ${order}, approved by ${ctx.requestState} and ${manager.approver}.`);
    if (!desk) return ask('desk', `Refund ${amount} on order ${order}?`);
    if (amount <= DESK_LIMIT) return text(`Refunded ${amount} on ${order}, approved by ${desk.approver}.`);
    // Side effects come after the last ask: nothing above this line changes anything.
    return ask(
      'manager',
      `${desk.approver} approved a refund of ${amount} on order ${order}, above ${DESK_LIMIT}. Approve?`,
      desk.approver,
    );
  },
});
