/**
 * The tool the question tests ask through: `refund` asks for an approval of order `args.order`
 * ("Refund <order>?", an optional note), addressed as the test says, and answers with what was
 * decided, by whom and through what (`accept for A-1 by carol via api (fine)`), so a test reads
 * the whole outcome from the caller's result. A question nobody answered, when its addressing
 * leaves the expiry to the handler, ends in a tool error saying so.
 */
import {
  defineTool,
  elicitFrom,
  inputRequired,
  inputResponse,
  type Addressing,
  type WaitDeclaration,
} from '@durable-mcp/handlers';

export const APPROVAL_NOTE = { type: 'object', properties: { note: { type: 'string', maxLength: 40 } } } as const;

/** `addressing` is read at each run, so it may name what is known only once the stack runs (its issuer). */
export function refundTool(
  name: string,
  addressing: () => Addressing,
  options: { taskSupport?: 'optional' } & WaitDeclaration = {},
) {
  return defineTool({
    tool: { name, inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
    ...options,
    run(args, ctx) {
      if (ctx.expired?.includes('approval'))
        return { isError: true, content: [{ type: 'text', text: `nobody approved ${String(args.order)} in time` }] };
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit') {
        const by = ctx.answeredBy?.approval?.map((a) => `${a.principal.subject} via ${a.via}`).join(', ');
        const note = approval.action === 'accept' ? ` (${String(approval.content?.note ?? '')})` : '';
        return { content: [{ type: 'text', text: `${approval.action} for ${String(args.order)} by ${by}${note}` }] };
      }
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(addressing(), {
            message: `Refund ${String(args.order)}?`,
            requestedSchema: APPROVAL_NOTE,
          }),
        },
      });
    },
  });
}
