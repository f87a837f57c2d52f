/**
 * A deployment approval in three rounds, one of each kind of embedded request:
 *   1. ask the client for its filesystem roots and its model for a change summary (together);
 *   2. show the person the summary and the roots check, and ask them to approve with a ticket;
 *   3. approve → the rollout is reported as progress and the approval logged; decline, cancel
 *      or "no" → nothing happens.
 * What round 1 learned rides to round 3 in the handler's own (sealed) state, because each round
 * only receives the answers to the ask just before it. Nothing is deployed before round 3.
 * Its rounds run as regular activities: a real rollout outlasts what a local activity may take
 * inside its workflow task (LOCAL_HANDLER_TIMEOUT_MS). An approval may wait for hours, so a client
 * that declared the Tasks extension gets it as a task.
 */
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

interface DeployState {
  summary: string;
  rootsCheck: string;
}

const approvalSchema = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Approve this deployment?' },
    ticket: { type: 'string' as const, title: 'Change ticket', minLength: 1 },
  },
  required: ['approve', 'ticket'],
};

function textOf(result: { content: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .map((b) => ((b as { type?: string }).type === 'text' ? String((b as { text: unknown }).text) : ''))
    .join(' ')
    .trim();
}

export const deployService = defineTool({
  tool: {
    name: 'deploy_service',
    title: 'Deploy a service (with approval)',
    description: 'Asks the client for its roots and a change summary, then asks a person to approve the deployment.',
    inputSchema: {
      type: 'object',
      properties: {
        service: { type: 'string', minLength: 1 },
        version: { type: 'string', minLength: 1 },
        environment: { type: 'string', enum: ['staging', 'production'] },
      },
      required: ['service', 'version', 'environment'],
    },
  },
  roundActivity: 'regular',
  taskSupport: 'optional',
  async run(args, ctx) {
    const { service, version, environment } = args as { service: string; version: string; environment: string };
    const target = `${service}@${version} to ${environment}`;

    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (ctx.requestState && approval.kind === 'elicit') {
      if (approval.action === 'accept' && approval.content?.approve === true) {
        // The side effect comes after the last ask, so re-executions never repeat it half-done.
        const steps = ['canary', 'half', 'all'];
        for (const [done, step] of steps.entries()) {
          await ctx.progress(done, steps.length, `Rolling out ${target}: ${step}`);
        }
        await ctx.progress(steps.length, steps.length, `Rolled out ${target}`);
        await ctx.sendLog('notice', {
          event: 'deployment-approved',
          service,
          version,
          environment,
          ticket: approval.content.ticket,
        });
        return {
          content: [{ type: 'text', text: `Approved: ${target} (ticket ${String(approval.content.ticket)}).` }],
          structuredContent: { approved: true, service, version, environment, ticket: approval.content.ticket },
        };
      }
      return {
        content: [{ type: 'text', text: `Not approved: ${target} will not be deployed.` }],
        structuredContent: { approved: false },
      };
    }

    const roots = inputResponse(ctx.inputResponses, 'roots');
    const summary = inputResponse(ctx.inputResponses, 'summary');
    if (roots.kind === 'roots' && summary.kind === 'sampling') {
      const matching = roots.roots.filter((root) => root.uri.includes(service));
      const state: DeployState = {
        summary: textOf(summary.result),
        rootsCheck: matching.length
          ? `the client has ${service} open (${matching.map((r) => r.uri).join(', ')})`
          : `none of the client's ${roots.roots.length} roots is a checkout of ${service}`,
      };
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicit({
            message: `Deploy ${target}?\nChange summary: ${state.summary}\nRoots check: ${state.rootsCheck}.`,
            requestedSchema: approvalSchema,
          }),
        },
        requestState: JSON.stringify(state),
      });
    }

    // Round 1, or answers that were missing or malformed: ask (again) for both.
    return inputRequired({
      inputRequests: {
        roots: inputRequired.listRoots(),
        summary: inputRequired.createMessage({
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `In two sentences, summarize what changes when ${service} goes to version ${version}.`,
              },
            },
          ],
          maxTokens: 200,
        }),
      },
    });
  },
});
