// A tool typed by zod schemas, driven under the service's own rules: its listed JSON Schema is
// what the service checks arguments against, and its declared form, state and answers carry
// through the rounds.
import { ask, defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';
import * as z from 'zod/v4';
import { driveTool } from './drive';

const transfer = defineTool({
  tool: {
    name: 'transfer',
    inputSchema: z.object({ to: z.string().regex(/^[A-Z0-9]{8,34}$/), amount: z.number().positive() }),
  },
  asks: { confirm: ask.form(z.object({ digits: z.string().length(4) })) },
  state: z.object({ tries: z.number().int() }),
  run(args, ctx) {
    const confirm = inputResponse(ctx.inputResponses, 'confirm');
    const tries = (ctx.state?.tries ?? 0) + 1;
    if (confirm.kind === 'elicit' && confirm.action === 'accept' && confirm.content.digits === args.to.slice(-4))
      return { content: [{ type: 'text', text: `sent ${args.amount} after ${tries - 1} asks` }] };
    return inputRequired({
      inputRequests: { confirm: ask.form(z.object({ digits: z.string().length(4) })).request({ message: 'Digits?' }) },
      requestState: ctx.keepState({ tries }),
    });
  },
});

describe('driveTool on a zod-typed tool', () => {
  const capabilities = { elicitation: {} };

  it('refuses arguments the listed schema refuses, as the service does', async () => {
    const refused = await driveTool(transfer, 'transfer', { to: 'nope', amount: 1 }, { capabilities });
    expect(refused.result).toMatchObject({ isError: true });
    expect(JSON.stringify(refused.result?.content)).toContain('arguments.to: must match pattern');
  });

  it('carries its state and typed answers through the rounds', async () => {
    const first = await driveTool(transfer, 'transfer', { to: 'DE0012345678', amount: 9 }, { capabilities });
    expect(first.ask?.inputRequests.confirm?.method).toBe('elicitation/create');
    const wrong = await first.answer({ confirm: { action: 'accept', content: { digits: '0000' } } });
    expect(wrong.kind).toBe('ask');
    const done = await wrong.answer({ confirm: { action: 'accept', content: { digits: '5678' } } });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'sent 9 after 2 asks' }]);
  });
});
