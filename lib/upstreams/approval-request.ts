/**
 * The question a policy's approval asks, before an upstream call is forwarded: a form addressed as
 * the policy says, naming the upstream, its tool, what the tool says it does and the policy that
 * holds it. The answer page shows the call's tool and full arguments beside it, and the evidence of
 * the answer is bound to the call's arguments' digest: what is forwarded is what was approved.
 */
import { elicitFrom, type Addressing } from '@durable-mcp/handlers';
import type { Tool } from '@modelcontextprotocol/server';
import { addressedAskProblem } from '../questions/addressed-ask-check';

/** The key the approval is asked under: never one an upstream's own ask uses, since it asks in a round of its own. */
export const APPROVAL_KEY = 'gateway_approval';

/** An optional note the approver may leave (shown to nobody but the evidence and the caller's error). */
const APPROVAL_FORM = {
  type: 'object',
  properties: { note: { type: 'string', title: 'Note', maxLength: 500 } },
} as const;

const MAX_DESCRIPTION = 300;

export function approvalRequest(upstream: string, tool: Tool, policy: string, addressing: Addressing) {
  const description = (tool.description ?? '').trim();
  const said = description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description;
  // Its expiry reaches the gate, which ends the call with a tool error of its own ("not approved in time").
  return elicitFrom(
    { ...addressing, onExpiry: 'handler' },
    {
      message: `Forward this call to ${upstream}'s tool "${tool.name}"?${said ? ` It says: ${said}` : ''} (policy: ${policy})`,
      requestedSchema: APPROVAL_FORM,
    },
  );
}

/**
 * Why `addressing` cannot be asked, if it cannot (as a handler's `elicitFrom` would be refused at
 * its round): checked when the file is read, so a policy nobody could answer stops the start. A
 * wait longer than the service allows is only known to the worker, which ends such a round with its error.
 */
export function approvalProblem(addressing: Addressing): string | undefined {
  const request = approvalRequest('upstream', { name: 'tool', inputSchema: { type: 'object' } }, 'policy', addressing);
  const problem = addressedAskProblem({ [APPROVAL_KEY]: request }, (a) => a.waitMs ?? Number.MAX_SAFE_INTEGER);
  return problem?.replace(`inputRequests.${APPROVAL_KEY}.addressedTo`, 'approve');
}
