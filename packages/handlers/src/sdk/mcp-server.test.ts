/**
 * Tools copied from the official SDK's docs and examples (typescript-sdk: examples/guides/servers/
 * input-required.examples.ts, tools.examples.ts, logging-progress-cancellation.examples.ts,
 * examples/mrtr/server.ts), their bodies unchanged, registered on this package's McpServer and
 * driven round by round as durable-mcp's worker runs them: each round re-executes the tool with the
 * answers to its previous ask and the requestState it returned with it.
 */
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ProtocolErrorCode,
  UrlElicitationRequiredError,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { isProtocolError, type HandlerContext, type ToolHandler } from '..';
import { testContext } from '@durable-mcp/testing';
import { McpServer } from '../sdk';

// The docs use a per-process random key; durable-mcp runs later rounds on any worker, so the key is shared.
const stateCodec = createRequestStateCodec<{ step: string }>({
  key: 'a key every worker shares, 32 bytes+',
  ttlSeconds: 600,
});

const server = new McpServer({ name: 'releases', version: '1.0.0' }, { requestState: { verify: stateCodec.verify } });

//#region input-required.examples.ts: registerTool_inputRequired
const confirmationSchema = z.object({
  confirm: z.boolean().meta({ title: 'Confirm deployment' }),
});

server.registerTool(
  'deploy',
  {
    description: 'Deploy after the operator confirms',
    inputSchema: z.object({ env: z.string() }),
  },
  async ({ env }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmationSchema);
    if (confirmed?.confirm !== true) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Deploy to ${env}?`,
            requestedSchema: confirmationSchema,
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `Deployed to ${env}` }] };
  },
);
//#endregion

//#region input-required.examples.ts: acceptedContent_schema
server.registerTool(
  'tag-release',
  {
    description: 'Tag a release after the operator confirms',
    inputSchema: z.object({ tag: z.string() }),
  },
  async ({ tag }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (view.kind === 'elicit' && view.action !== 'accept') {
      return { content: [{ type: 'text', text: 'Tagging cancelled by the operator' }], isError: true };
    }
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', z.object({ confirm: z.boolean() }));
    if (confirmed?.confirm !== true) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Tag ${tag}?`,
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `Tagged ${tag}` }] };
  },
);
//#endregion

//#region input-required.examples.ts: registerTool_writeOnce
server.registerTool(
  'provision',
  { description: 'Provision a database', inputSchema: z.object({}) },
  async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const name = acceptedContent(ctx.mcpReq.inputResponses, 'name', z.object({ name: z.string() }));
    const region = acceptedContent(ctx.mcpReq.inputResponses, 'region', z.object({ region: z.string() }));
    if (name === undefined || region === undefined) {
      return inputRequired({
        inputRequests: {
          ...(name === undefined && {
            name: inputRequired.elicit({
              message: 'Database name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          }),
          ...(region === undefined && {
            region: inputRequired.elicit({
              message: 'Which region?',
              requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
            }),
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `Provisioned ${name.name} in ${region.region}` }] };
  },
);
//#endregion

//#region input-required.examples.ts: requestState_mint
server.registerTool(
  'wipe-cache',
  { description: 'Confirm, then pick a scope, then wipe', inputSchema: z.object({}) },
  async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const state = ctx.mcpReq.requestState<{ step: string }>();

    if (state?.step !== 'confirmed') {
      const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Really wipe the cache?',
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
            }),
          },
        });
      }
      // Mint only what the response above already proved: the operator confirmed.
      return inputRequired({
        inputRequests: {
          scope: inputRequired.elicit({
            message: 'Which scope?',
            requestedSchema: { type: 'object', properties: { scope: { type: 'string' } }, required: ['scope'] },
          }),
        },
        requestState: await stateCodec.mint({ step: 'confirmed' }),
      });
    }

    const scope = acceptedContent<{ scope: string }>(ctx.mcpReq.inputResponses, 'scope');
    return { content: [{ type: 'text', text: `Wiped ${scope?.scope ?? 'all'}` }] };
  },
);
//#endregion

//#region tools.examples.ts: registerTool_structured, registerTool_annotations
const catalog = [
  { name: 'Espresso cup', price: 12 },
  { name: 'Travel mug', price: 24 },
];

server.registerTool(
  'product-details',
  {
    description: 'Look up one product by its exact name',
    inputSchema: z.object({ name: z.string() }),
    outputSchema: z.object({ name: z.string(), price: z.number() }),
  },
  async ({ name }) => {
    const product = catalog.find((candidate) => candidate.name === name);
    if (!product) throw new Error(`No product named ${name}`);
    const output = { name: product.name, price: product.price };
    return {
      content: [{ type: 'text', text: JSON.stringify(output) }],
      structuredContent: output,
    };
  },
);

server.registerTool(
  'clear-catalog',
  {
    title: 'Clear the catalog',
    description: 'Remove every product from the catalog',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  async () => {
    catalog.length = 0;
    return { content: [{ type: 'text', text: 'Catalog cleared' }] };
  },
);
//#endregion

//#region logging-progress-cancellation.examples.ts: registerTool_progress, registerTool_logging
server.registerTool(
  'process-files',
  {
    description: 'Process files with progress updates',
    inputSchema: z.object({ files: z.array(z.string()) }),
  },
  async ({ files }, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;

    for (let i = 0; i < files.length; i++) {
      // ... process files[i] ...

      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken, progress: i + 1, total: files.length, message: `Processed ${files[i]}` },
        });
      }
    }

    return { content: [{ type: 'text', text: `Processed ${files.length} files` }] };
  },
);

server.registerTool(
  'validate-records',
  {
    description: 'Validate records before import',
    inputSchema: z.object({ records: z.array(z.string()) }),
  },
  async ({ records }, ctx) => {
    await ctx.mcpReq.log('info', `Validating ${records.length} records`);
    const invalid = records.filter((record) => !record.endsWith('.csv'));
    if (invalid.length > 0) {
      await ctx.mcpReq.log('warning', { invalid });
    }
    return {
      content: [{ type: 'text', text: `${records.length - invalid.length} of ${records.length} records are valid` }],
    };
  },
);
//#endregion

//#region examples/mrtr/server.ts: deploy, registered as 'sign-in-deploy'
const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};
type DeployState = { step: 'confirm' | 'signed-in'; env: string };
const deployCodec = createRequestStateCodec<DeployState>({
  key: 'another key the workers share, 32 bytes+',
  ttlSeconds: 600,
});
const mrtr = new McpServer(
  { name: 'mrtr-example-server', version: '1.0.0' },
  { capabilities: { tools: {} }, requestState: { verify: deployCodec.verify } },
);
mrtr.registerTool(
  'sign-in-deploy',
  {
    title: 'Deploy (write-once)',
    description: 'Deploys to the named environment after a confirmation and a sign-in.',
    inputSchema: z.object({ env: z.string() }),
  },
  async ({ env }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const state = ctx.mcpReq.requestState<DeployState>();
    const step = state?.step ?? 'confirm';
    if (step === 'confirm') {
      const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
      if (!confirmed?.confirm) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: CONFIRM_SCHEMA }),
          },
          requestState: await deployCodec.mint({ step: 'confirm', env }),
        });
      }
      return inputRequired({
        inputRequests: {
          auth: inputRequired.elicitUrl({ message: 'Sign in to continue', url: `https://example.com/auth?env=${env}` }),
        },
        requestState: await deployCodec.mint({ step: 'signed-in', env }),
      });
    }
    const auth = ctx.mcpReq.inputResponses?.['auth'] as { action?: string } | undefined;
    if (auth?.action !== 'accept') {
      return { isError: true, content: [{ type: 'text', text: 'auth response missing or declined' }] };
    }
    return { content: [{ type: 'text', text: `deployed to ${state?.env ?? env}` }] };
  },
);
//#endregion

const set = server.toHandlerSet();
const tool = (name: string, from = set.tools): ToolHandler => from.find((handler) => handler.tool.name === name)!;
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** Runs round `round` of `name` with the answers to the previous ask and the state it returned. */
async function round(
  handler: ToolHandler,
  args: Record<string, unknown>,
  context: Partial<HandlerContext> = {},
): Promise<CallToolResult & InputRequiredResult> {
  return (await handler.run(args, testContext(context))) as CallToolResult & InputRequiredResult;
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('an SDK-style module on durable-mcp', () => {
  it('is a handler set named after the server, with the tools in registration order', () => {
    expect(set.name).toBe('releases');
    expect(set.tools.map((handler) => handler.tool.name)).toEqual([
      'deploy',
      'tag-release',
      'provision',
      'wipe-cache',
      'product-details',
      'clear-catalog',
      'process-files',
      'validate-records',
    ]);
  });

  describe('deploy: one confirmation', () => {
    const deploy = tool('deploy');

    it('asks with the elicitation schema the SDK converts from zod', async () => {
      const ask = await round(deploy, { env: 'prod' });
      expect(ask).toEqual({
        resultType: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Deploy to prod?',
              requestedSchema: {
                $schema: 'https://json-schema.org/draft/2020-12/schema',
                type: 'object',
                properties: { confirm: { type: 'boolean', title: 'Confirm deployment' } },
                required: ['confirm'],
              },
            },
          },
        },
      });
    });

    it('deploys once the person confirms, and asks again when they do not', async () => {
      const done = await round(
        deploy,
        { env: 'prod' },
        { round: 2, inputResponses: { confirm: accept({ confirm: true }) } },
      );
      expect(done).toEqual({ content: [{ type: 'text', text: 'Deployed to prod' }] });
      const again = await round(
        deploy,
        { env: 'prod' },
        { round: 2, inputResponses: { confirm: accept({ confirm: false }) } },
      );
      expect(again.resultType).toBe('input_required');
    });

    it("answers arguments its schema refuses with the SDK's tool error, in every round", async () => {
      const expected = {
        content: [
          {
            type: 'text',
            text: 'Input validation error: Invalid arguments for tool deploy: env: Invalid input: expected string, received number',
          },
        ],
        isError: true,
      };
      expect(await round(deploy, { env: 42 })).toEqual(expected);
      expect(
        await round(deploy, { env: 42 }, { round: 2, inputResponses: { confirm: accept({ confirm: true }) } }),
      ).toEqual(expected);
    });

    it("ends with the SDK's error when a legacy client answered the ask with an error", async () => {
      const failed = await round(
        deploy,
        { env: 'prod' },
        {
          round: 2,
          inputResponses: { confirm: { error: { code: -32601, message: 'Method not found' } } },
        },
      );
      expect(failed).toEqual({
        content: [{ type: 'text', text: "Fulfilling input required by 'tools/call' failed: Method not found" }],
        isError: true,
      });
    });
  });

  it('tag-release: a declined confirmation ends the call as a tool error', async () => {
    const tag = tool('tag-release');
    expect((await round(tag, { tag: 'v2.1.0' })).inputRequests?.confirm).toMatchObject({
      params: { message: 'Tag v2.1.0?' },
    });
    const declined = await round(
      tag,
      { tag: 'v2.1.0' },
      { round: 2, inputResponses: { confirm: { action: 'decline' } } },
    );
    expect(declined).toEqual({ content: [{ type: 'text', text: 'Tagging cancelled by the operator' }], isError: true });
  });

  it('provision: asks for both inputs in one round and uses both answers', async () => {
    const provision = tool('provision');
    const ask = await round(provision, {});
    expect(Object.keys(ask.inputRequests ?? {})).toEqual(['name', 'region']);
    const done = await round(
      provision,
      {},
      {
        round: 2,
        inputResponses: { name: accept({ name: 'analytics' }), region: accept({ region: 'eu-west-1' }) },
      },
    );
    expect(text(done)).toBe('Provisioned analytics in eu-west-1');
  });

  describe('wipe-cache: state minted with the SDK codec, carried across rounds', () => {
    const wipe = tool('wipe-cache');

    it('confirms, then asks for the scope with the minted state, then wipes with the state verified', async () => {
      const first = await round(wipe, {});
      expect(first.inputRequests?.confirm).toMatchObject({ params: { message: 'Really wipe the cache?' } });
      expect(first.requestState).toBeUndefined();

      const second = await round(wipe, {}, { round: 2, inputResponses: { confirm: accept({ confirm: true }) } });
      expect(second.inputRequests?.scope).toMatchObject({ params: { message: 'Which scope?' } });
      expect(typeof second.requestState).toBe('string');

      const third = await round(
        wipe,
        {},
        {
          round: 3,
          requestState: second.requestState,
          inputResponses: { scope: accept({ scope: 'sessions' }) },
        },
      );
      expect(third).toEqual({ content: [{ type: 'text', text: 'Wiped sessions' }] });
    });

    it('ends the call with -32602 when the state does not verify, as the SDK does, outside the tool-error net', async () => {
      const second = await round(wipe, {}, { round: 2, inputResponses: { confirm: accept({ confirm: true }) } });
      const tampered = `${second.requestState!.slice(0, -2)}xx`;
      for (const state of [tampered, 'not a codec state']) {
        const thrown = await round(wipe, {}, { round: 3, requestState: state }).catch((error: unknown) => error);
        expect(isProtocolError(thrown)).toBe(true);
        expect(thrown).toMatchObject({
          code: ProtocolErrorCode.InvalidParams,
          message: 'Invalid or expired requestState',
        });
      }
    });

    it('ends the call with -32602 when the state expired, as the codec TTL counts from mint', async () => {
      const second = await round(wipe, {}, { round: 2, inputResponses: { confirm: accept({ confirm: true }) } });
      const now = Date.now();
      const later = jest.spyOn(Date, 'now').mockReturnValue(now + 601_000);
      try {
        await expect(
          round(
            wipe,
            {},
            { round: 3, requestState: second.requestState, inputResponses: { scope: accept({ scope: 'x' }) } },
          ),
        ).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
      } finally {
        later.mockRestore();
      }
    });
  });

  it('sign-in-deploy (examples/mrtr): a form, then a URL elicitation, each with state from the codec', async () => {
    const deploy = tool('sign-in-deploy', mrtr.toHandlerSet().tools);
    const confirm = await round(deploy, { env: 'staging' });
    expect(confirm.inputRequests?.confirm).toMatchObject({ method: 'elicitation/create', params: { mode: 'form' } });

    const signIn = await round(
      deploy,
      { env: 'staging' },
      {
        round: 2,
        requestState: confirm.requestState,
        inputResponses: { confirm: accept({ confirm: true }) },
      },
    );
    expect(signIn.inputRequests?.auth).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Sign in to continue', url: 'https://example.com/auth?env=staging' },
    });

    const done = await round(
      deploy,
      { env: 'staging' },
      {
        round: 3,
        requestState: signIn.requestState,
        inputResponses: { auth: { action: 'accept' } },
      },
    );
    expect(done).toEqual({ content: [{ type: 'text', text: 'deployed to staging' }] });
  });

  describe('product-details: structured output', () => {
    const details = tool('product-details');

    it('lists its output schema and returns its structured content', async () => {
      expect(details.tool.outputSchema).toMatchObject({ type: 'object', required: ['name', 'price'] });
      const found = await round(details, { name: 'Travel mug' });
      expect(found.structuredContent).toEqual({ name: 'Travel mug', price: 24 });
    });

    it('reports what the tool throws as a tool error', async () => {
      expect(await round(details, { name: 'Teapot' })).toEqual({
        content: [{ type: 'text', text: 'No product named Teapot' }],
        isError: true,
      });
    });
  });

  it('clear-catalog: a tool without an inputSchema is called with ctx alone', async () => {
    const clear = tool('clear-catalog');
    expect(clear.tool).toMatchObject({
      title: 'Clear the catalog',
      inputSchema: { type: 'object', properties: {} },
      annotations: { destructiveHint: true },
    });
    expect(text(await round(clear, {}))).toBe('Catalog cleared');
  });

  it("process-files: progress notifications reach the round's progress", async () => {
    const progress = jest.fn(async () => undefined);
    const done = await round(tool('process-files'), { files: ['a.csv', 'b.csv'] }, { progress });
    expect(text(done)).toBe('Processed 2 files');
    expect(progress.mock.calls).toEqual([
      [1, 2, 'Processed a.csv'],
      [2, 2, 'Processed b.csv'],
    ]);
  });

  it("validate-records: ctx.mcpReq.log reaches the round's sendLog", async () => {
    const sendLog = jest.fn(async () => undefined);
    await round(tool('validate-records'), { records: ['a.csv', 'b.txt'] }, { sendLog });
    expect(sendLog.mock.calls).toEqual([
      ['info', 'Validating 2 records', undefined],
      ['warning', { invalid: ['b.txt'] }, undefined],
    ]);
  });
});

describe('what the SDK does around a tool, kept', () => {
  const ok = async () => ({ content: [] as CallToolResult['content'] });

  it('checks structuredContent against the outputSchema', async () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('bmi', { outputSchema: z.object({ bmi: z.number() }) }, async () => ({
      content: [],
      structuredContent: { bmi: 'high' },
    }));
    s.registerTool('bare', { outputSchema: z.object({ bmi: z.number() }) }, ok);
    const [bmi, bare] = s.toHandlerSet().tools;
    expect(text(await round(bmi!, {}))).toBe(
      'Output validation error: Invalid structured content for tool bmi: bmi: Invalid input: expected number, received string',
    );
    expect(text(await round(bare!, {}))).toBe(
      'Output validation error: Tool bmi has an output schema but no structured content was provided'.replace(
        'bmi',
        'bare',
      ),
    );
  });

  it('passes the parsed arguments, defaults and transforms applied', async () => {
    const seen: unknown[] = [];
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool(
      'greet',
      { inputSchema: z.object({ name: z.string().trim(), times: z.number().default(2) }) },
      async (args) => {
        seen.push(args);
        return { content: [] };
      },
    );
    await round(s.toHandlerSet().tools[0]!, { name: '  Ada ' });
    expect(seen).toEqual([{ name: 'Ada', times: 2 }]);
  });

  it('adds the content a result left out', async () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('quiet', {}, async () => ({}) as CallToolResult);
    expect(await round(s.toHandlerSet().tools[0]!, {})).toEqual({ content: [] });
  });

  it("makes the SDK's ProtocolError a tool error, and lets UrlElicitationRequired through as the JSON-RPC error", async () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('limited', {}, async () => {
      throw new (await import('@modelcontextprotocol/server')).ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'too many',
      );
    });
    s.registerTool('needs-url', {}, async () => {
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: 'Sign in', url: 'https://example.com/a', elicitationId: 'e-1' },
      ]);
    });
    const [limited, needsUrl] = s.toHandlerSet().tools;
    expect(await round(limited!, {})).toEqual({ content: [{ type: 'text', text: 'too many' }], isError: true });
    const thrown = await round(needsUrl!, {}).catch((error: unknown) => error);
    expect(isProtocolError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: ProtocolErrorCode.UrlElicitationRequired });
  });

  it('refuses a server-to-client request as the SDK does on a 2026-07-28 request', async () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('pushy', {}, async (ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        message: 'Sure?',
        requestedSchema: { type: 'object', properties: {} },
      });
      return { content: [{ type: 'text', text: answer.action }] };
    });
    const result = await round(s.toHandlerSet().tools[0]!, {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Server-to-client requests are not available on durable-mcp: 'elicitation\/create'/);
  });

  it('serves the catalog as it is at toHandlerSet(): disabled, removed and renamed tools, a swapped callback', async () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('off', {}, ok).disable();
    s.registerTool('gone', {}, ok).remove();
    s.registerTool('old-name', {}, ok).update({ name: 'new-name' });
    s.registerTool('swapped', {}, ok).update({ callback: async () => ({ content: [{ type: 'text', text: 'new' }] }) });
    const served = s.toHandlerSet().tools;
    expect(served.map((handler) => handler.tool.name)).toEqual(['new-name', 'swapped']);
    expect(text(await round(served[1]!, {}))).toBe('new');
  });

  it('takes durable-mcp options per tool, and refuses options for a tool it does not serve', () => {
    const options = { durable: { slow: { roundActivity: 'regular', taskSupport: 'optional' } } } as const;
    const s = new McpServer({ name: 'n', version: '1' }, { ...options, instructions: 'Ask before deploying.' });
    s.registerTool('slow', {}, ok);
    const served = s.toHandlerSet();
    expect(served.instructions).toBe('Ask before deploying.');
    expect(served.tools[0]).toMatchObject({ roundActivity: 'regular', taskSupport: 'optional' });

    const typo = new McpServer({ name: 'n', version: '1' }, { durable: { slwo: { roundActivity: 'regular' } } });
    typo.registerTool('slow', {}, ok);
    expect(() => typo.toHandlerSet()).toThrow('durable options name no enabled tool: slwo');
  });

  it('refuses a scopeChallenge, which only an HTTP entry can answer', () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('admin', { scopeChallenge: () => undefined }, ok);
    expect(() => s.toHandlerSet()).toThrow(/^tool admin: scopeChallenge is not supported on durable-mcp/);
  });

  it('refuses what the SDK refuses at registration: a duplicate name', () => {
    const s = new McpServer({ name: 'n', version: '1' });
    s.registerTool('twice', {}, ok);
    expect(() => s.registerTool('twice', {}, ok)).toThrow(/twice/);
  });
});
