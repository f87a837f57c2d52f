/**
 * A long approval, best run as a task: production access needs two people's yes, the service
 * owner's and security's, asked at once. A client that declared the Tasks extension gets a task
 * at once and polls it; each approver answers their own question with `tasks/update`, in any
 * order, hours apart if need be (up to ROUND_TIMEOUT_MS, within the task's TASK_TTL_MS). A client
 * that did not declare it is asked both questions over MRTR, the same handler serving both.
 * Access is granted only after the last ask, so a re-execution never grants half of it.
 */
import { defineTool, inputRequired, inputResponse, type InputResponseView } from '@durable-mcp/handlers';

const decisionSchema = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Grant this access?' },
    note: { type: 'string' as const, title: 'Note for the audit log' },
  },
  required: ['approve'],
};

const APPROVERS = { owner_approval: 'the service owner', security_approval: 'security' } as const;
type ApprovalKey = keyof typeof APPROVERS;

/** An approver's decision: true (approved), false (declined, cancelled, or "no"), or undefined (not answered). */
function decisionOf(view: InputResponseView): boolean | undefined {
  if (view.kind !== 'elicit') return undefined;
  return view.action === 'accept' && view.content?.approve === true;
}

export const accessRequest = defineTool({
  tool: {
    name: 'request_access',
    title: 'Request production access (two approvals)',
    description:
      'Asks the service owner and security to approve temporary production access; runs as a task for clients that take one.',
    inputSchema: {
      type: 'object',
      properties: {
        service: { type: 'string', minLength: 1 },
        hours: { type: 'integer', minimum: 1, maximum: 24 },
        reason: { type: 'string', minLength: 1 },
      },
      required: ['service', 'reason'],
    },
  },
  taskSupport: 'optional',
  run(args, ctx) {
    const { service, reason } = args as { service: string; reason: string };
    const hours = typeof args.hours === 'number' ? args.hours : 4;
    const keys = Object.keys(APPROVERS) as ApprovalKey[];
    const decisions = keys.map((key) => decisionOf(inputResponse(ctx.inputResponses, key)));
    if (decisions.some((decision) => decision === undefined)) {
      return inputRequired({
        inputRequests: Object.fromEntries(
          keys.map((key) => [
            key,
            inputRequired.elicit({
              message: `As ${APPROVERS[key]}: grant ${hours} h of production access to ${service}? Reason given: ${reason}`,
              requestedSchema: decisionSchema,
            }),
          ]),
        ),
      });
    }
    const declined = keys.filter((_, i) => decisions[i] === false).map((key) => APPROVERS[key]);
    if (declined.length > 0) {
      return {
        content: [{ type: 'text', text: `Access to ${service} not granted: declined by ${declined.join(' and ')}.` }],
      };
    }
    ctx.log.info({ service, hours, principal: ctx.principal.subject }, 'production access granted');
    return { content: [{ type: 'text', text: `Access to ${service} granted for ${hours} h.` }] };
  },
});
