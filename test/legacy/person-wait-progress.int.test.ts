/**
 * A handshake-era host keeps waiting while a person answers its client: while the server's own
 * `elicitation/create` or `sampling/createMessage` request is open, a call that carries a progress
 * token gets `notifications/progress` on its stream every QUESTION_PROGRESS_EVERY_MS, so a client
 * that resets its request timeout on progress waits past that timeout. Official clients of both
 * lines (2.x negotiating 2025-11-25, 1.x over Streamable HTTP and over the 2024-11-05 HTTP+SSE
 * transport), each with a handler slower than its request timeout.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { useTestService } from '../support/test-service';

/** The client's request timeout: shorter than the person takes. */
const TIMEOUT_MS = 3_000;
/** How long the person takes to answer. */
const PERSON_MS = 5_000;
const EVERY_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const askPerson = defineTool({
  tool: { name: 'ask_person', inputSchema: { type: 'object' } },
  run: (_args, ctx) => {
    const answer = ctx.inputResponses.approver as { content?: { name?: string } } | undefined;
    if (answer) return text(`Approved by ${answer.content?.name}`);
    return inputRequired({
      inputRequests: {
        approver: inputRequired.elicit({
          message: 'Who approves the change?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
    });
  },
});

const askModel = defineTool({
  tool: { name: 'ask_model', inputSchema: { type: 'object' } },
  run: (_args, ctx) => {
    const answer = ctx.inputResponses.summary as { content?: { text?: string } } | undefined;
    if (answer) return text(`Summary: ${answer.content?.text}`);
    return inputRequired({
      inputRequests: {
        summary: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the change' } }],
          maxTokens: 50,
        }),
      },
    });
  },
});

const handlers: HandlerSet = { name: 'person-waits', tools: [askPerson, askModel] };

interface Progress {
  progress: number;
  message?: string;
}

/** Call options of a host that resets its timeout on progress (or not), recording what arrives. */
function callOptions(resetTimeoutOnProgress: boolean) {
  const progress: Progress[] = [];
  return {
    progress,
    options: { onprogress: (p: Progress) => progress.push(p), resetTimeoutOnProgress, timeout: TIMEOUT_MS },
  };
}

const slowElicitation = async () => {
  await sleep(PERSON_MS);
  return { action: 'accept' as const, content: { name: 'Grace' } };
};

describe('a handshake-era call waiting on a person', () => {
  const service = useTestService({ QUESTION_PROGRESS_EVERY_MS: String(EVERY_MS) }, { handlers });

  async function connectV2() {
    const client = new ClientV2({ name: 'slow-person-v2', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', slowElicitation as never);
    await client.connect(new StreamableV2(new URL(service.url)));
    return client;
  }

  it('keeps the official 2.x client (2025-11-25) waiting past its timeout while the user fills its form', async () => {
    const client = await connectV2();
    try {
      const { progress, options } = callOptions(true);
      const result = await client.callTool({ name: 'ask_person', arguments: {} }, options);
      expect(result).toMatchObject({ content: [{ text: 'Approved by Grace' }] });
      // About one a second for the five seconds the form was open; none after the answer.
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.every((p) => p.message === 'Waiting for the user to answer: Who approves the change?')).toBe(
        true,
      );
      expect(progress.map((p) => p.progress)).toEqual(progress.map((_p, index) => index + 1));
    } finally {
      await client.close();
    }
  });

  it('times out the same call in a host that does not reset its timeout on progress', async () => {
    const client = await connectV2();
    try {
      const { options } = callOptions(false);
      await expect(client.callTool({ name: 'ask_person', arguments: {} }, options)).rejects.toThrow(/timed out/i);
    } finally {
      await client.close();
    }
  });

  it('keeps the official 1.x client waiting while the user reviews a sampling request', async () => {
    const client = new ClientV1({ name: 'slow-person-v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      await sleep(PERSON_MS);
      return { role: 'assistant', content: { type: 'text', text: 'one line' }, model: 'm', stopReason: 'endTurn' };
    });
    await client.connect(new StreamableV1(new URL(service.url)));
    try {
      const { progress, options } = callOptions(true);
      const result = await client.callTool({ name: 'ask_model', arguments: {} }, undefined, options);
      expect(result).toMatchObject({ content: [{ text: 'Summary: one line' }] });
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress[0]!.message).toBe('Waiting for the user to review a sampling request');
    } finally {
      await client.close();
    }
  });

  it('keeps a 2024-11-05 client (HTTP+SSE) waiting the same way', async () => {
    const client = new ClientV1({ name: 'slow-person-sse', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, slowElicitation);
    await client.connect(new SSEClientTransport(new URL(service.url.replace(/\/mcp$/, '/sse'))));
    try {
      const { progress, options } = callOptions(true);
      const result = await client.callTool({ name: 'ask_person', arguments: {} }, undefined, options);
      expect(result).toMatchObject({ content: [{ text: 'Approved by Grace' }] });
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress[0]!.message).toBe('Waiting for the user to answer: Who approves the change?');
    } finally {
      await client.close();
    }
  });
});
