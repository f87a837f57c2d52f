/**
 * What the types catch, checked by `npm run typecheck` (the suite's first step): each line marked
 * `@ts-expect-error` must fail to compile, so a typed handler that stops catching the mistake
 * fails the tests. Nothing here runs.
 */
import * as z from 'zod/v4';
import { ask, defineTool, inputResponse } from '@durable-mcp/handlers';

export const typeChecks = defineTool({
  tool: { name: 'type_checks', inputSchema: z.object({ order: z.string() }) },
  asks: { desk: ask.form(z.object({ approve: z.boolean() })), folders: ask.roots() },
  run(args, ctx) {
    // @ts-expect-error: the order is a string
    const order: number = args.order;
    // @ts-expect-error: 'dsek' is not an ask this tool declared
    inputResponse(ctx.inputResponses, 'dsek');
    const desk = inputResponse(ctx.inputResponses, 'desk');
    // @ts-expect-error: 'acept' is not an answer's action
    if (desk.kind === 'elicit' && desk.action === 'acept') void order;
    const folders = inputResponse(ctx.inputResponses, 'folders');
    // @ts-expect-error: a roots answer has no content
    if (folders.kind === 'roots') void folders.content;
    return { content: [] };
  },
});
