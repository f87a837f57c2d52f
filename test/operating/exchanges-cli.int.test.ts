/**
 * `npm run exchanges` as an operator runs it: the real command (npm, tsx) against the API running
 * as its own process, with a worker on the same task queue, the real Temporal and Postgres.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { projectRoot } from '../../lib/paths';
import { builtInHandlerVersion } from '../../lib/handler-set/handler-version';
import { TEST_ADMIN_TOKEN } from '../support/admin-client';
import { startApiProcess, type ApiProcess } from '../support/service-processes';
import { exchangeStatus } from '../support/exchange-rows';
import { rawCall } from '../support/raw-mcp';
import { readStackInfo } from '../support/stack-info';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run --silent exchanges -- ...args`, with `env` over this process's environment (ADMIN_* cleared). */
function exchanges(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { ADMIN_TOKEN: _token, ADMIN_URL: _url, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'exchanges', '--', ...args],
      { cwd: projectRoot(), env: { ...inherited, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What the API process serves (HANDLERS unset: the built-in demo set), so what each exchange records. */
const DEMO_VERSION = builtInHandlerVersion('demo');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('npm run exchanges', () => {
  let worker: TestService;
  let api: ApiProcess;
  let base: string;
  let waitingId: string;
  const auth = () => ['--url', base, '--token', TEST_ADMIN_TOKEN];

  beforeAll(async () => {
    const stack = readStackInfo();
    const taskQueue = `test-${randomUUID()}`;
    worker = await startTestService({ TEMPORAL_TASK_QUEUE: taskQueue });
    api = await startApiProcess({
      DATABASE_URL: stack.databaseUrl,
      TEMPORAL_ADDRESS: stack.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ...TEST_KEY_RINGS,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
    });
    base = api.url.replace(/\/mcp$/, '');
    const first = await rawCall(api.url, 'tools/call', { name: 'greet', arguments: {} });
    expect(first.body.result?.inputRequests).toHaveProperty('name');
    const { rows } = await worker.pool.query<{ id: string }>(
      "SELECT id FROM exchanges WHERE target = 'greet' AND status = 'running' ORDER BY created_at DESC LIMIT 1",
    );
    waitingId = rows[0]!.id;
  });
  afterAll(async () => {
    await api?.kill();
    await worker?.close();
  });

  it('list prints a table with the waiting exchange, and --json the API answer', async () => {
    const run = await exchanges(['list', ...auth(), '--status', 'running', '--target', 'greet', '--limit', '200']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+STATUS\s+ERA\s+METHOD\s+TARGET\s+ROUND\s+ASKS\s+AGE\s+WAITING\s+SESSION\s+HANDLERS$/,
    );
    expect(lines[1]).toMatch(/^-+( +-+)+$/);
    const row = lines.find((line) => line.startsWith(waitingId));
    expect(row).toMatch(
      new RegExp(
        `^${waitingId}\\s+running\\s+modern\\s+tools/call\\s+greet\\s+1\\s+1\\s+\\d+s\\s+\\d+s\\s+-\\s+${escaped(DEMO_VERSION)}$`,
      ),
    );

    const json = await exchanges(['list', ...auth(), '--status', 'running', '--target', 'greet', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).exchanges.map((e: { id: string }) => e.id)).toContain(waitingId);
  });

  it('list --handler-version finds the exchanges a version of the handlers started, and only those', async () => {
    const filter = ['list', ...auth(), '--target', 'greet', '--limit', '200', '--handler-version'];
    const same = await exchanges([...filter, DEMO_VERSION]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(waitingId);
    const other = await exchanges([...filter, 'demo@0.0.0-not-deployed']);
    expect(other).toMatchObject({ code: 0, stdout: 'No exchanges match.\n' });
  });

  it('takes the URL and token from ADMIN_URL and ADMIN_TOKEN', async () => {
    const run = await exchanges(['list', '--target', 'greet', '--limit', '1'], {
      ADMIN_URL: base,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('STATUS');
  });

  it('show prints the exchange, its Temporal UI link and its rounds', async () => {
    const run = await exchanges(['show', waitingId, ...auth()]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`^Exchange:\\s+${waitingId}$`, 'm'));
    expect(run.stdout).toMatch(/^Status:\s+running$/m);
    expect(run.stdout).toMatch(/^Call:\s+tools\/call greet$/m);
    expect(run.stdout).toMatch(new RegExp(`^Handlers:\\s+${escaped(DEMO_VERSION)}$`, 'm'));
    expect(run.stdout).toMatch(/^Waiting:\s+\d+s, deadline /m);
    expect(run.stdout).toMatch(new RegExp(`^Workflow:\\s+exchange-${waitingId} \\(RUNNING\\)$`, 'm'));
    expect(run.stdout).toContain(
      `Temporal UI:  http://127.0.0.1:8233/namespaces/default/workflows/exchange-${waitingId}`,
    );
    expect(run.stdout).toMatch(/^ROUND\s+KIND\s+RECORDED\s+TOOK\s+ASKED\s+ANSWERED\s+WAITED\s+OUTCOME$/m);
    expect(run.stdout).toMatch(/^1\s+ask\s+\S+Z\s+\S+\s+name \(elicitation\/create\)\s+-\s+-\s+waiting$/m);
  });

  it('cancel ends the exchange, and a second cancel exits 6: already ended', async () => {
    const run = await exchanges(['cancel', waitingId, ...auth(), '--reason', 'operator test']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.trim()).toBe(`Cancelled ${waitingId} (tools/call greet).`);
    expect(await exchangeStatus(worker.pool, waitingId)).toBe('cancelled');

    const shown = await exchanges(['show', waitingId, ...auth()]);
    expect(shown.stdout).toMatch(/^2\s+error\s+.*-32012 Exchange cancelled by an operator: operator test$/m);

    const again = await exchanges(['cancel', waitingId, ...auth()]);
    expect(again.code).toBe(6);
    expect(again.stderr.trim()).toBe('The exchange had already ended (cancelled)');
  });

  it('exits 5 for an unknown exchange, 4 for a wrong token, 1 for a refused filter', async () => {
    const unknown = await exchanges(['show', randomUUID(), ...auth()]);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toMatch(/^not found: No exchange /);

    const wrong = await exchanges(['list', '--url', base, '--token', 'wrong-token']);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('unauthorized: The bearer token is not valid');

    const refused = await exchanges(['list', ...auth(), '--status', 'sleeping']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('list failed (HTTP 400): status must be one of');
  });

  it('exits 3 when the service cannot be reached, and 2 for a usage error', async () => {
    const down = await exchanges(['list', '--url', `http://127.0.0.1:${await closedPort()}`, '--token', 'x']);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);

    for (const args of [
      [],
      ['frobnicate'],
      ['show'],
      ['list', '--bogus'],
      ['cancel', waitingId, '--status', 'x'],
      ['list', '--url', base],
    ]) {
      const usage = await exchanges(args);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage: durable-mcp exchanges <command> [options]');
    }
  });
});
