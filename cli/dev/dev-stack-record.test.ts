import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devStacksFolder, findDevStack, recordDevStack, type DevStackRecord } from './dev-stack-record';

let root: string;
let env: NodeJS.ProcessEnv;
const alive = new Set<number>();
const isAlive = (pid: number) => alive.has(pid);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'dev-stack-record-'));
  env = { XDG_STATE_HOME: path.join(root, 'state') };
  alive.clear();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stack started in `project` with its data in `data` (relative to it), serving on `port`. */
function stack(pid: number, project: string, data: string, port: number): DevStackRecord {
  const cwd = path.join(root, project);
  const dataDir = path.join(cwd, data);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'dev-admin-token'), `token-${pid}\n`);
  const record = {
    pid,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    cwd,
    tokenFile: path.join(dataDir, 'dev-admin-token'),
  };
  recordDevStack(record, env);
  alive.add(pid);
  return record;
}
const found = (cwd: string) => findDevStack(path.join(root, cwd), env, isAlive);

it("finds a clone's npm run dev stack (.data) from a folder below it, with its port and token", () => {
  mkdirSync(path.join(root, 'clone', 'examples', 'refund-desk'), { recursive: true });
  const record = stack(101, 'clone', '.data', 4100);
  expect(found('clone/examples/refund-desk')).toEqual({ kind: 'running', record, token: 'token-101' });
});

it('finds the one running stack from anywhere, and the one around the working directory among several', () => {
  mkdirSync(path.join(root, 'elsewhere'), { recursive: true });
  const first = stack(101, 'a', '.durable-mcp', 4100);
  expect(found('elsewhere')).toEqual({ kind: 'running', record: first, token: 'token-101' });
  const second = stack(102, 'b', 'custom-data', 4200);
  expect(found('elsewhere')).toEqual({ kind: 'ambiguous', records: [first, second] });
  mkdirSync(path.join(root, 'b', 'src'), { recursive: true });
  expect(found('b/src')).toEqual({ kind: 'running', record: second, token: 'token-102' });
});

it('ignores a stack whose process is gone, and drops its record from the state folder', () => {
  stack(101, 'a', '.durable-mcp', 4100);
  alive.delete(101);
  mkdirSync(path.join(root, 'elsewhere'), { recursive: true });
  expect(found('elsewhere')).toBeUndefined();
  expect(readdirSync(devStacksFolder(env))).toEqual([]);
  // In its own folder, the token it left still serves a service on the default port.
  expect(found('a')).toEqual({
    kind: 'token-only',
    token: 'token-101',
    tokenFile: path.join(root, 'a', '.durable-mcp', 'dev-admin-token'),
  });
});

it('removes its records when the stack stops', () => {
  const cwd = path.join(root, 'a');
  mkdirSync(cwd);
  const forget = recordDevStack(
    { pid: 7, url: 'http://127.0.0.1:1', dataDir: path.join(cwd, '.durable-mcp'), cwd },
    env,
  );
  alive.add(7);
  expect(found('a')?.kind).toBe('running');
  forget();
  expect(found('a')).toBeUndefined();
});
