/**
 * Handler modules as a user writes them, in a temporary folder outside the project, for the tests
 * of HANDLERS: one tool, `approve_refund`, that asks a person once. It imports the handler API by
 * its absolute path (what a user will import from the package).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

export const HANDLER_API = path.join(projectRoot(), 'packages', 'handlers', 'src');

/** The `approve_refund` tool's definition, as TypeScript source; `inputSchema` replaceable to break it. */
export function approveRefundTool(
  inputSchema = `{
      type: 'object',
      properties: { order: { type: 'string' }, amount: { type: 'number', minimum: 0 } },
      required: ['order', 'amount'],
    }`,
): string {
  return `defineTool({
  tool: {
    name: 'approve_refund',
    description: 'Refunds an order once a person approves it.',
    inputSchema: ${inputSchema},
  },
  run(args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'approval');
    if (answer.kind === 'elicit' && answer.action === 'accept') {
      return answer.content?.approve === true
        ? { content: [{ type: 'text', text: \`Refunded \${args.amount} on order \${args.order}.\` }] }
        : { content: [{ type: 'text', text: \`Refund on order \${args.order} declined.\` }] };
    }
    return inputRequired({
      inputRequests: {
        approval: inputRequired.elicit({
          message: \`Refund \${args.amount} on order \${args.order}?\`,
          requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
        }),
      },
    });
  },
})`;
}

/** A TypeScript module whose default export is a set of `approve_refund`. */
export function approveRefundModule(tool = approveRefundTool()): string {
  return `import { defineTool, inputRequired, inputResponse, type HandlerSet } from ${JSON.stringify(HANDLER_API)};

const handlers: HandlerSet = { name: 'refunds', tools: [${tool}] };
export default handlers;
`;
}

/** A temporary folder to write modules into, removed by `remove()`. */
export function moduleFolder(): {
  dir: string;
  write(file: string, source: string): string;
  /** Links the project's node_modules into the folder, for a module that imports packages by name. */
  linkNodeModules(): void;
  remove(): void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'durable-mcp-handlers-'));
  return {
    dir,
    write(file, source) {
      const at = path.join(dir, file);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, source);
      return at;
    },
    linkNodeModules: () => symlinkSync(path.join(projectRoot(), 'node_modules'), path.join(dir, 'node_modules'), 'dir'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `approve_refund` written for the official SDK's `McpServer.registerTool` (zod schemas, the
 * SDK's `acceptedContent` and `createRequestStateCodec`), served through
 * `@durable-mcp/handlers/sdk`: the only lines an SDK server file changes are the McpServer import
 * and the default export. It needs the project's node_modules (`folder.linkNodeModules()`).
 */
export function sdkApproveRefundModule(): string {
  return `import { acceptedContent, createRequestStateCodec, inputRequired } from '@modelcontextprotocol/server';
import { McpServer } from '@durable-mcp/handlers/sdk';
import * as z from 'zod/v4';

const stateCodec = createRequestStateCodec<{ order: string }>({ key: 'the key every worker of this tool shares', ttlSeconds: 900 });
const server = new McpServer({ name: 'refunds', version: '1.0.0' }, { requestState: { verify: stateCodec.verify } });
const approval = z.object({ approve: z.boolean().meta({ title: 'Approve the refund' }) });

server.registerTool(
  'approve_refund',
  {
    description: 'Refunds an order once a person approves it.',
    inputSchema: z
      .object({ order: z.string().regex(/^A-[0-9]+$/), amount: z.number().positive() })
      .refine(({ amount }) => amount <= 500, 'a refund over 500 needs a manager'),
  },
  async ({ order, amount }, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'approval', approval);
    if (answer === undefined) {
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicit({ message: \`Refund \${amount} on order \${order}?\`, requestedSchema: approval }),
        },
        requestState: await stateCodec.mint({ order }),
      });
    }
    const state = ctx.mcpReq.requestState<{ order: string }>();
    if (!answer.approve) return { content: [{ type: 'text', text: \`Refund on order \${state?.order} declined.\` }] };
    return { content: [{ type: 'text', text: \`Refunded \${amount} on order \${state?.order}.\` }] };
  },
);

export default server.toHandlerSet();
`;
}
