import type { DevStackFound } from '../dev/dev-stack-record';
import { adminTarget } from './admin-target';

const io = (env: Record<string, string>, found?: DevStackFound) => ({
  out: () => undefined,
  err: () => undefined,
  env,
  devStack: () => found,
});
const running: DevStackFound = {
  kind: 'running',
  record: {
    pid: 1,
    url: 'http://127.0.0.1:4100',
    dataDir: '/p/.data',
    cwd: '/p',
    tokenFile: '/p/.data/dev-admin-token',
  },
  token: 'dev-token',
};

it('talks to the running dev stack on its own port with its own token', () => {
  expect(adminTarget({}, io({ PORT: '3000' }, running))).toEqual({ base: 'http://127.0.0.1:4100', token: 'dev-token' });
});

it('lets flags and variables win over the dev stack', () => {
  expect(adminTarget({ url: 'http://x:1/' }, io({ ADMIN_TOKEN: 'mine' }, running))).toEqual({
    base: 'http://x:1',
    token: 'mine',
  });
});

it('says which stacks run when it cannot tell which is meant', () => {
  const ambiguous: DevStackFound = {
    kind: 'ambiguous',
    records: [
      { pid: 1, url: 'http://127.0.0.1:4100', dataDir: '/a/.durable-mcp', cwd: '/a' },
      { pid: 2, url: 'http://127.0.0.1:4200', dataDir: '/b/.durable-mcp', cwd: '/b' },
    ],
  };
  expect(adminTarget({}, io({}, ambiguous))).toEqual({
    usage:
      "several durable-mcp dev stacks run: http://127.0.0.1:4100 (started in /a), http://127.0.0.1:4200 (started in /b); pass --url, or run this in one's folder",
  });
});

it('falls back to PORT with a token left in a data folder, and says when there is no token', () => {
  expect(adminTarget({}, io({ PORT: '3300' }, { kind: 'token-only', token: 't', tokenFile: '/p/.data/x' }))).toEqual({
    base: 'http://127.0.0.1:3300',
    token: 't',
  });
  expect(adminTarget({}, io({}))).toEqual({
    usage: 'no admin token: pass --token or set ADMIN_TOKEN (in a folder where durable-mcp dev runs, its own is used)',
  });
});

it('never sends a token found here to a --url of another service, only to the stack it belongs to', () => {
  expect(adminTarget({ url: 'https://prod.example' }, io({}, running))).toMatchObject({
    usage: expect.stringContaining('no admin token'),
  });
  const tokenOnly: DevStackFound = { kind: 'token-only', token: 't', tokenFile: '/p/.data/x' };
  expect(adminTarget({ url: 'http://127.0.0.1:3000' }, io({}, tokenOnly))).toMatchObject({
    usage: expect.stringContaining('no admin token'),
  });
  expect(adminTarget({ url: 'http://127.0.0.1:4100/' }, io({}, running))).toEqual({
    base: 'http://127.0.0.1:4100',
    token: 'dev-token',
  });
});
