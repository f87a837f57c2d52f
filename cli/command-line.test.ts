import { parseCommandLine } from './command-line';

describe('parseCommandLine', () => {
  it.each([
    [['dev'], { command: 'dev', watch: true }],
    [['dev', 'tools.ts'], { command: 'dev', module: 'tools.ts', watch: true }],
    [
      ['dev', 'tools.ts', '--no-watch', '--data-dir', '/tmp/d'],
      { command: 'dev', module: 'tools.ts', dataDir: '/tmp/d', watch: false },
    ],
    [['dev', '--data-dir', 'd', 'tools.ts'], { command: 'dev', module: 'tools.ts', dataDir: 'd', watch: true }],
    [
      ['dev', '--upstream', 'http://127.0.0.1:8000/mcp'],
      { command: 'dev', upstream: 'http://127.0.0.1:8000/mcp', watch: true },
    ],
    [
      ['dev', 'tools.ts', '--watch', 'prompts', '--watch', 'config.yaml'],
      { command: 'dev', module: 'tools.ts', watch: true, watchPaths: ['prompts', 'config.yaml'] },
    ],
    [['start'], { command: 'start', role: 'all' }],
    [['start', 'worker'], { command: 'start', role: 'worker' }],
    [['check', './tools.ts'], { command: 'check', module: './tools.ts' }],
    [['check', '--upstreams', 'u.json'], { command: 'check-upstreams', file: 'u.json' }],
    [['check', '--quotas', 'q.json'], { command: 'check-quotas', file: 'q.json' }],
    [[], { command: 'help' }],
    [['--help'], { command: 'help' }],
    [['help', 'dev'], { command: 'help', topic: 'dev' }],
    [['start', '--help'], { command: 'help', topic: 'start' }],
    [['check', 'a.ts', '-h'], { command: 'help', topic: 'check' }],
    [['--version'], { command: 'version' }],
    [
      ['exchanges', 'list', '--status', 'running', '--help'],
      { command: 'exchanges', argv: ['list', '--status', 'running', '--help'] },
    ],
    [['-v'], { command: 'version' }],
  ])('reads %j', (argv, expected) => {
    expect(parseCommandLine(argv)).toEqual(expected);
  });

  it.each([
    [['dev', 'a.ts', 'b.ts'], 'durable-mcp dev: unexpected b.ts'],
    [['dev', '--watch'], 'durable-mcp dev: --watch needs a file or folder'],
    [['dev', '--watch', '--no-watch'], 'durable-mcp dev: --watch needs a file or folder'],
    [['dev', '--watch', 'p', '--no-watch'], 'durable-mcp dev: --watch and --no-watch do not go together'],
    [['dev', '--data-dir'], 'durable-mcp dev: --data-dir needs a folder'],
    [['dev', '--data-dir', '--no-watch'], 'durable-mcp dev: --data-dir needs a folder'],
    [['dev', '--upstream'], "durable-mcp dev: --upstream needs an MCP server's http(s) URL"],
    [['dev', '--upstream', 'tools.ts'], "durable-mcp dev: --upstream needs an MCP server's http(s) URL"],
    [['start', 'scheduler'], 'durable-mcp start: the role is one of all, api, worker'],
    [['check'], 'durable-mcp check: name one module'],
    [['check', 'a.ts', 'b.ts'], 'durable-mcp check: name one module'],
    [['check', '--upstreams'], 'durable-mcp check: --upstreams needs one file, and nothing else'],
    [['check', 'a.ts', '--upstreams', 'u.json'], 'durable-mcp check: --upstreams needs one file, and nothing else'],
    [['check', '--quotas'], 'durable-mcp check: --quotas needs one file, and nothing else'],
    [
      ['check', '--quotas', 'q.json', '--upstreams', 'u.json'],
      'durable-mcp check: --upstreams needs one file, and nothing else',
    ],
    [['serve'], 'durable-mcp: no command serve'],
    [['help', 'serve'], 'durable-mcp help: no command serve'],
  ])('refuses %j', (argv, message) => {
    expect(parseCommandLine(argv)).toEqual({ command: 'usage-error', message });
  });
});
