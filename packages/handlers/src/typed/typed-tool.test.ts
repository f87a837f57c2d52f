/**
 * Typed tools: what a Standard Schema (zod 4 here) declares is what the handler's code is typed
 * by (the `@ts-expect-error` lines are type tests: `npm run typecheck` fails if any of them
 * compiles), what `tools/list` shows (the SDK's own listing for the same schemas), and what each
 * round checks (arguments, answers, state, the structured result).
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer as SdkMcpServer, type Tool } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { defineTool } from '../define';
import { isProtocolError } from '../protocol-error';
import { testContext } from '@durable-mcp/testing';
import { inputRequired } from './asked';
import { ask } from './asks';
import { inputResponse } from './input-response';

const Refund = z.object({
  order: z.string().min(1),
  amount: z.number().positive(),
  notify: z.boolean().default(false),
});
const Receipt = z.object({ order: z.string(), refunded: z.number() });
const Approval = z.object({ ok: z.boolean(), note: z.string().max(20).optional() });
const Progress = z.object({ asked: z.number().int() });

const refund = defineTool({
  tool: { name: 'refund', description: 'Refund an order', inputSchema: Refund, outputSchema: Receipt },
  asks: { approval: ask.form(Approval), where: ask.roots() },
  state: Progress,
  run(args, ctx) {
    const amount: number = args.amount;
    const notify: boolean = args.notify;
    // @ts-expect-error: the order is a string, not a number
    const wrong: number = args.order;
    void [amount, notify, wrong];

    const approval = inputResponse(ctx.inputResponses, 'approval');
    // @ts-expect-error: 'approvl' is not a declared ask
    inputResponse(ctx.inputResponses, 'approvl');
    const where = inputResponse(ctx.inputResponses, 'where');
    // @ts-expect-error: a roots answer has no content
    if (where.kind === 'roots') void where.content;
    if (approval.kind === 'elicit' && approval.action === 'accept') {
      const ok: boolean = approval.content.ok;
      // @ts-expect-error: the form has no field 'amount'
      void approval.content.amount;
      if (!ok)
        return { content: [{ type: 'text', text: 'refused' }], structuredContent: { order: args.order, refunded: 0 } };
      return {
        content: [{ type: 'text', text: `refunded ${args.amount} (asked ${ctx.state?.asked ?? 0} times)` }],
        structuredContent: { order: args.order, refunded: args.amount },
      };
    }
    const asked = (ctx.state?.asked ?? 0) + 1;
    // @ts-expect-error: the state is { asked: number }
    ctx.keepState({ asked: 'twice' });
    return inputRequired({
      inputRequests: { approval: ask.form(Approval).request({ message: `Refund ${args.amount}?` }) },
      requestState: ctx.keepState({ asked }),
    });
  },
});

// An ask under a key the tool did not declare does not compile: a misspelt key, or any key of a
// tool that declared no asks. Under declared keys, or with state only, it does.
// @ts-expect-error: 'aproval' is not a declared ask
defineTool({
  tool: { name: 'misspelt', inputSchema: z.object({}) },
  asks: { approval: ask.form(Approval) },
  run: () => inputRequired({ inputRequests: { aproval: ask.form(Approval).request({ message: 'Refund?' }) } }),
});
// @ts-expect-error: the tool declared no asks
defineTool({
  tool: { name: 'undeclared', inputSchema: z.object({}) },
  run: () => inputRequired({ inputRequests: { approval: inputRequired.listRoots() } }),
});
defineTool({
  tool: { name: 'declared', inputSchema: z.object({}) },
  asks: { approval: ask.form(Approval), where: ask.roots() },
  async run(_args, ctx) {
    if (inputResponse(ctx.inputResponses, 'where').kind === 'missing')
      return inputRequired({ inputRequests: { where: inputRequired.listRoots() } });
    return inputRequired({ requestState: 'only state' });
  },
});

// A result whose structuredContent does not fit the outputSchema does not compile.
const partialReceipt = () => ({ content: [], structuredContent: { order: 'A-1' } });
defineTool({
  tool: { name: 'partial', inputSchema: z.object({}), outputSchema: Receipt },
  // @ts-expect-error: structuredContent lacks refunded
  run: partialReceipt,
});

/** What a real SDK server lists for the same schemas. */
async function listedByTheSdk(): Promise<Tool> {
  const real = new SdkMcpServer({ name: 'pin', version: '1.0.0' });
  real.registerTool(
    'refund',
    { description: 'Refund an order', inputSchema: Refund, outputSchema: Receipt },
    async () => ({
      content: [],
      structuredContent: { order: '', refunded: 0 },
    }),
  );
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await real.connect(serverSide);
  const client = new Client({ name: 'pin', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools[0]!;
  } finally {
    await client.close();
    await real.close();
  }
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('a tool typed by Standard Schemas', () => {
  it('lists the JSON Schemas a real SDK server lists for the same zod schemas', async () => {
    expect(refund.tool).toEqual(await listedByTheSdk());
  });

  it('asks with the form its declaration builds, keeps its state, and is typed by what it was answered', async () => {
    const first = (await refund.run({ order: 'A-1', amount: 5 }, testContext())) as unknown as {
      inputRequests: { approval: { params: { requestedSchema: Record<string, unknown> } } };
      requestState: string;
    };
    expect(first.inputRequests.approval.params.requestedSchema).toMatchObject({
      type: 'object',
      properties: { ok: { type: 'boolean' }, note: { type: 'string', maxLength: 20 } },
      required: ['ok'],
    });
    const second = await refund.run(
      { order: 'A-1', amount: 5 },
      testContext({
        inputResponses: { approval: { action: 'accept', content: { ok: true } } },
        requestState: first.requestState,
      }),
    );
    expect(textOf(second)).toBe('refunded 5 (asked 1 times)');
  });

  it('refuses arguments only its schema library refuses as the service refuses arguments (a tool error), naming the field', async () => {
    const refine = defineTool({
      tool: { name: 'even', inputSchema: z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') }) },
      run: (args) => ({ content: [{ type: 'text', text: String(args.n) }] }),
    });
    const refused = await Promise.resolve(refine.run({ n: 3 }, testContext())).catch((e: unknown) => e);
    expect(isProtocolError(refused)).toBe(false);
    expect((refused as Error).message).toBe('Invalid arguments for tool even:\narguments.n: must be even');
  });

  it("gives a form's content its schema refuses as invalid, not as an answer", async () => {
    const tool = defineTool({
      tool: { name: 't', inputSchema: z.object({}) },
      asks: { approval: ask.form(Approval) },
      run(_args, ctx) {
        const approval = inputResponse(ctx.inputResponses, 'approval');
        return { content: [{ type: 'text', text: approval.kind }] };
      },
    });
    const answered = (content: unknown) =>
      tool.run({}, testContext({ inputResponses: { approval: { action: 'accept', content } } }));
    expect(textOf(await answered({ ok: 'yes' }))).toBe('invalid');
    expect(textOf(await answered({ ok: false }))).toBe('elicit');
  });

  it('refuses a structured result its outputSchema refuses', async () => {
    const tool = defineTool({
      tool: { name: 't', inputSchema: z.object({}), outputSchema: Receipt },
      run: () => ({ content: [], structuredContent: { order: 'x', refunded: 'all' as unknown as number } }),
    });
    await expect(Promise.resolve(tool.run({}, testContext()))).rejects.toThrow(/structuredContent\.refunded/);
  });

  it('still takes a JSON Schema literal, with a plain record of arguments', () => {
    const plain = defineTool({
      tool: { name: 'plain', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
      run: (args) => ({ content: [{ type: 'text', text: String(args.n) }] }),
    });
    expect(plain.tool.inputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
  });
});
