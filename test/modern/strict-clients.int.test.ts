/**
 * What a strict 2026-07-28 client reads: a state-only leg carries `inputRequests: {}` (a client
 * that takes a result without `inputRequests` as final, the Go SDK's, retries it), and an embedded
 * request the handler recorded without `params` (`inputRequired.listRoots()`) goes out with
 * `params: {}` (the Go SDK cannot decode one without). Shown on the raw wire, through the official
 * TypeScript client, through a real Go SDK client (test/modern/go-client, built with `go build`;
 * skipped, saying why, when Go or its module cannot be had), and through the Python SDK (`mcp` 2.x)
 * and FastMCP (test/modern/python-client; skipped when `python3` cannot import them).
 */
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { exchangeStartedBy } from '../support/exchange-rows';
import { goProgram } from '../support/built-program';
import { connectModernClient } from '../support/modern-client';
import { isComeBack, rawCall, type RpcReply } from '../support/raw-mcp';
import { useTestService } from '../support/test-service';

/** How long a leg waits before a state-only result, here. */
const HTTP_WAIT_MS = 1500;
/** The slow tool's round: past one leg's wait, well within two. */
const SLOW_MS = 2000;
/** Past three legs' waits: the Go SDK gives up on its third state-only result. */
const SLOWER_MS = 4 * HTTP_WAIT_MS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const slowTool = (name: string, ms: number) =>
  defineTool({
    tool: { name, inputSchema: { type: 'object' } },
    run: async () => {
      await sleep(ms);
      return text(`done after ${ms} ms`);
    },
  });

const rootsTool = defineTool({
  tool: { name: 'list_client_roots', inputSchema: { type: 'object' } },
  run: (_args, ctx) => {
    const answer = ctx.inputResponses.roots as { roots?: Array<{ uri: string }> } | undefined;
    if (answer) return text(`roots: ${(answer.roots ?? []).map((root) => root.uri).join(', ')}`);
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  },
});

const handlers: HandlerSet = {
  name: 'strict-clients',
  tools: [slowTool('slow_answer', SLOW_MS), slowTool('slower_than_three_legs', SLOWER_MS), rootsTool],
};

const goClient = goProgram(path.join(__dirname, 'go-client'));
if ('skipped' in goClient)
  console.warn(`strict-clients.int.test.ts: the Go SDK client's tests are skipped: ${goClient.skipped}`);
const describeWithGo = 'binary' in goClient ? describe : describe.skip;

/** What a client program prints: the result's text or its error (and, from the Go client, its legs). */
interface ClientReport {
  text?: string;
  error?: string;
  legs?: number;
}

/** Runs the Go client (never synchronously: the service it calls runs in this process). */
async function runGoClient(url: string, tool: string): Promise<ClientReport> {
  if (!('binary' in goClient)) throw new Error('no Go client');
  const { stdout } = await promisify(execFile)(goClient.binary, [url, tool], { encoding: 'utf8', timeout: 90_000 });
  return JSON.parse(stdout.trim()) as ClientReport;
}

const PYTHON_CLIENT = path.join(__dirname, 'python-client', 'mrtr_client.py');

/** The Python clients this machine can import, each run by `python3`. */
function pythonClients(): Array<'mcp' | 'fastmcp'> {
  return (['mcp', 'fastmcp'] as const).filter((name) => {
    try {
      execFileSync('python3', ['-c', `import ${name}`], { stdio: 'pipe', timeout: 60_000 });
      return true;
    } catch {
      console.warn(`strict-clients.int.test.ts: the ${name} client's tests are skipped: python3 cannot import ${name}`);
      return false;
    }
  });
}
const PYTHON_CLIENTS = pythonClients();
const describeWithPython = PYTHON_CLIENTS.length > 0 ? describe : describe.skip;

async function runPythonClient(url: string, tool: string, flavour: 'mcp' | 'fastmcp'): Promise<ClientReport> {
  const { stdout } = await promisify(execFile)('python3', [PYTHON_CLIENT, url, tool, flavour], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ClientReport;
}

describe('what strict 2026-07-28 clients read', () => {
  const service = useTestService(
    { HTTP_WAIT_MS: String(HTTP_WAIT_MS), LOCAL_HANDLER_TIMEOUT_MS: '20000' },
    { handlers },
  );
  afterAll(() => {
    if ('remove' in goClient) goClient.remove();
  });

  describe('on the raw wire', () => {
    it('sends a state-only leg as input_required with inputRequests {} and a requestState, and nothing else to answer', async () => {
      const first = await rawCall(service.url, 'tools/call', { name: 'slow_answer', arguments: {} });
      expect(isComeBack(first)).toBe(true);
      const { _meta: _serverInfo, ...rest } = first.body.result!;
      expect(rest).toEqual({ resultType: 'input_required', inputRequests: {}, requestState: expect.any(String) });

      let reply = first;
      for (let legs = 1; isComeBack(reply) && legs < 10; legs += 1)
        reply = await rawCall(service.url, 'tools/call', {
          name: 'slow_answer',
          arguments: {},
          requestState: reply.body.result!.requestState,
        });
      expect(reply.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ text: `done after ${SLOW_MS} ms` }],
      });
    });

    it('sends a roots ask recorded without params with params {}, and takes the roots in answer', async () => {
      const roots = { roots: {} };
      let first!: RpcReply;
      const exchange = await exchangeStartedBy(service.pool, 'list_client_roots', async () => {
        first = await rawCall(service.url, 'tools/call', { name: 'list_client_roots', arguments: {} }, roots);
      });
      expect(first.body.result).toMatchObject({ resultType: 'input_required' });
      expect(first.body.result!.inputRequests).toEqual({ roots: { method: 'roots/list', params: {} } });

      const answered = await rawCall(
        service.url,
        'tools/call',
        {
          name: 'list_client_roots',
          arguments: {},
          inputResponses: { roots: { roots: [{ uri: 'file:///work/raw' }] } },
          requestState: first.body.result!.requestState,
        },
        roots,
      );
      expect(answered.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ text: 'roots: file:///work/raw' }],
      });
      // The record keeps the ask as the handler made it.
      const asked = await createExchangeStorePg(service.pool).readRound(exchange.id, 1);
      expect(asked?.outcome).toMatchObject({ kind: 'ask', inputRequests: { roots: { method: 'roots/list' } } });
      expect(asked?.outcome.kind === 'ask' && asked.outcome.inputRequests.roots).not.toHaveProperty('params');
    });
  });

  describe('through the official TypeScript client (2.x)', () => {
    it('waits past a state-only leg and answers a roots ask', async () => {
      const client = await connectModernClient(service.url, { roots: [{ uri: 'file:///work/ts', name: 'ts' }] });
      try {
        expect(await client.callTool({ name: 'slow_answer', arguments: {} })).toMatchObject({
          content: [{ text: `done after ${SLOW_MS} ms` }],
        });
        expect(await client.callTool({ name: 'list_client_roots', arguments: {} })).toMatchObject({
          content: [{ text: 'roots: file:///work/ts' }],
        });
      } finally {
        await client.close();
      }
    });
  });

  describeWithPython('through the Python SDK (mcp 2.x) and FastMCP', () => {
    it.each(PYTHON_CLIENTS)('%s waits past a state-only leg and answers a roots ask', async (flavour) => {
      expect(await runPythonClient(service.url, 'slow_answer', flavour)).toEqual({ text: `done after ${SLOW_MS} ms` });
      let report!: ClientReport;
      const exchange = await exchangeStartedBy(service.pool, 'list_client_roots', async () => {
        report = await runPythonClient(service.url, 'list_client_roots', flavour);
      });
      expect(report).toEqual({ text: 'roots: file:///work/python' });
      expect(exchange.era).toBe('modern'); // the roots ask went as an InputRequiredResult, not a roots/list request
    });
  });

  describeWithGo('through the official Go SDK client', () => {
    it('retries a state-only leg (inputRequests {}) until the result', async () => {
      const report = await runGoClient(service.url, 'slow_answer');
      expect(report).toMatchObject({ text: `done after ${SLOW_MS} ms` });
      expect(report.error).toBeUndefined();
      // At least one state-only leg, and fewer than the three the SDK tolerates.
      expect(report.legs).toBeGreaterThanOrEqual(2);
      expect(report.legs).toBeLessThanOrEqual(3);
    });

    it('decodes a roots ask (params {}) and answers it with its roots', async () => {
      const report = await runGoClient(service.url, 'list_client_roots');
      expect(report).toEqual({ text: 'roots: file:///work/project', legs: 2 });
    });

    it('gets the pending result where its loop would fail, its third state-only result (docs/protocol.md)', async () => {
      const report = await runGoClient(service.url, 'slower_than_three_legs');
      // The client reports the pending result as the tool error it is marked.
      expect(report.error).toMatch(
        /^tool error: Not finished yet, and nothing failed: this call to "slower_than_three_legs"/,
      );
      expect(report.error).toContain('call the tool "await_answer"');
      expect(report.legs).toBe(3);
    });
  });
});
