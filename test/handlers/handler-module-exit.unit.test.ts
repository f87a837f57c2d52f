/**
 * A process main given a handler module it cannot serve stops before it connects to anything, with
 * exit code 78 and one message naming the module's file (and the tool at fault), no stack trace.
 * The mains run as they do under `npm run dev`'s tsx, so the module is loaded by Node's own
 * `import()`, not jest's: the worker reads TypeScript's CommonJS output (`__esModule`) as a set.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { projectRoot } from '../../lib/paths';
import { moduleFolder } from '../support/handler-modules';

const ROOT = projectRoot();
const folder = moduleFolder();
afterAll(() => folder.remove());

const ring = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;

function runMain(main: string, handlers: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      // Never reached: the handler module is refused first.
      DATABASE_URL: 'postgres://mcp@127.0.0.1:1/mcp',
      REQUEST_STATE_KEYS: ring('k1'),
      PAYLOAD_CODEC_KEYS: ring('p1'),
      WORKER_METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      HANDLERS: handlers,
    },
  });
  return { status: run.status, stderr: run.stderr };
}

describe('a process main given a handler module it cannot serve', () => {
  it('the worker: names the file and the tool whose schema does not compile, and exits 78', () => {
    // What `tsc` makes of `export default { ... }` in a CommonJS project.
    const file = folder.write(
      'dist/tools.js',
      `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = {
  name: "refunds",
  tools: [{ tool: { name: "approve_refund", inputSchema: { type: "object", properties: { amount: { type: "money" } } } }, run() {} }],
};
`,
    );
    const { status, stderr } = runMain('cli/start/worker-main.ts', file);
    expect(status).toBe(78);
    expect(stderr).toMatch(new RegExp(`^handler module ${file}: invalid handler set:\n`));
    expect(stderr).toContain('tool approve_refund: inputSchema does not compile');
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('the API: names the file of an ES module with a syntax error, and exits 78', () => {
    const file = folder.write('tools.mjs', 'export default { name: "refunds", tools: [ };\n');
    const { status, stderr } = runMain('cli/start/api-main.ts', file);
    expect(status).toBe(78);
    expect(stderr).toMatch(new RegExp(`^handler module ${file} failed to load: SyntaxError: `));
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
