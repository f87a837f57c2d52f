/**
 * The tools the client compatibility tests call: one per scenario of the table
 * (compatibility.ts), each answering with a text that says what it was given, so a test reads the
 * whole outcome from the caller's result. Every client under test is given the same peers
 * (client-peers.ts): it accepts a form with `{ name: 'Ada' }`, declines one whose message starts
 * with `[decline]`, samples `A small change.` and lists one root.
 */
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const ORDER = { type: 'object' as const, properties: { order: { type: 'string' } }, required: ['order'] };

const ping = defineTool({
  tool: { name: 'ping', inputSchema: { type: 'object' } },
  run: () => text('pong'),
});

const askName = defineTool({
  tool: { name: 'ask_name', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    const name = inputResponse(ctx.inputResponses, 'name');
    if (name.kind === 'elicit') return text(`${name.action}: ${String(name.content?.name ?? '')}`);
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
    });
  },
});

const confirm = defineTool({
  tool: { name: 'confirm', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'go');
    if (answer.kind === 'elicit') return text(answer.action);
    return inputRequired({
      inputRequests: {
        go: inputRequired.elicit({
          message: '[decline] Go ahead?',
          requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } },
        }),
      },
    });
  },
});

const summarize = defineTool({
  tool: { name: 'summarize', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    const summary = inputResponse(ctx.inputResponses, 'summary');
    if (summary.kind === 'sampling') {
      const content = summary.result.content as { text?: string } | Array<{ text?: string }>;
      return text(`sampled: ${(Array.isArray(content) ? content[0] : content)?.text ?? ''}`);
    }
    return inputRequired({
      inputRequests: {
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the change.' } }],
          maxTokens: 50,
        }),
      },
    });
  },
});

const listRoots = defineTool({
  tool: { name: 'list_roots', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    const roots = inputResponse(ctx.inputResponses, 'roots');
    if (roots.kind === 'roots') return text(`roots: ${roots.roots.map((r) => r.uri).join(', ')}`);
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  },
});

/** A question to someone else (a member of `approvers`), answered on the answer page by the test. */
const approve = defineTool({
  tool: { name: 'approve', inputSchema: ORDER },
  run(args, ctx) {
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') return text(`${approval.action}: ${String(args.order)}`);
    return inputRequired({
      inputRequests: {
        approval: elicitFrom(
          { anyOf: [answerer.group('approvers')], waitMs: 3_600_000 },
          { message: `Approve ${String(args.order)}?`, requestedSchema: { type: 'object', properties: {} } },
        ),
      },
    });
  },
});

export const clientTools: HandlerSet = {
  name: 'client-compatibility',
  tools: [ping, askName, confirm, summarize, listRoots, approve],
};
