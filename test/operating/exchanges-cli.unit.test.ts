// Pins what `npm run exchanges` prints and how it refuses a command line, without a server.
import { EXIT, run } from '../../cli/exchanges/exchanges-command';
import { clip, detailLines, humanMs, humanSeconds, listLines, table } from '../../cli/exchanges/exchange-tables';

async function runCli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (line) => out.push(line), err: (line) => err.push(line), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('durable-mcp exchanges, without a server', () => {
  it('prints its usage with --help, exit 0', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(EXIT.ok);
    expect(help.out).toContain('usage: durable-mcp exchanges <command> [options]');
  });

  it.each([
    [[], 'a command is needed'],
    [['purge'], 'unknown command: purge'],
    [['show'], 'show needs an exchange id'],
    [['cancel'], 'cancel needs an exchange id'],
    [['list', 'extra'], 'list takes no argument'],
    [['show', 'a', 'b'], 'unexpected argument: b'],
    [['show', 'a', '--status', 'running'], '--status is an option of list'],
    [['list', '--reason', 'x'], '--reason is an option of cancel'],
    [['list', '--colour'], "Unknown option '--colour'"],
    [['list'], 'no admin token'],
    [['list', '--token', 't', '--url', 'ftp://x'], '--url must be an http:// or https:// URL'],
  ])('refuses %j with exit 2: %s', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(EXIT.usage);
    expect(result.err).toContain(message);
    expect(result.err).toContain('usage:');
  });
});

describe('what it prints', () => {
  it('says durations the way people read them', () => {
    expect([0, 42, 60, 185, 3600, 7620, 86_400, 273_600].map(humanSeconds)).toEqual([
      '0s',
      '42s',
      '1m00s',
      '3m05s',
      '1h00m',
      '2h07m',
      '1d00h',
      '3d04h',
    ]);
    expect([3, 850, 1234, 65_000].map(humanMs)).toEqual(['3ms', '850ms', '1.2s', '1m05s']);
    expect(clip('a  long\ntarget name', 10)).toBe('a long ta…');
  });

  it('lines up table columns under a rule', () => {
    expect(table(['A', 'LONGER'], [['wide cell', 'x']])).toEqual([
      'A          LONGER',
      '---------  ------',
      'wide cell  x',
    ]);
  });

  it('lists exchanges one per row, with dashes for what does not apply', () => {
    const lines = listLines([
      {
        id: 'd4c8db0f-f213-43c1-a995-5d5aa381be64',
        status: 'running',
        era: 'legacy',
        method: 'tools/call',
        target: 'deploy_service',
        rounds: 2,
        asks: 2,
        createdAt: '2026-12-01T12:00:00.000Z',
        ageSeconds: 400,
        waitingSeconds: 312,
        session: '0123456789ab',
        handlerVersion: 'demo@0.1.0',
      },
      {
        id: '22c13da5-36ab-4f6b-b1f4-61388eb976c9',
        status: 'completed',
        era: 'modern',
        method: 'tools/call',
        target: 'greet',
        rounds: 2,
        asks: 1,
        createdAt: '2026-12-01T12:00:00.000Z',
        ageSeconds: 90_000,
      },
    ]);
    expect(lines).toEqual([
      'ID                                    STATUS     ERA     METHOD      TARGET          ROUND  ASKS  AGE    WAITING  SESSION       HANDLERS',
      '------------------------------------  ---------  ------  ----------  --------------  -----  ----  -----  -------  ------------  ----------',
      'd4c8db0f-f213-43c1-a995-5d5aa381be64  running    legacy  tools/call  deploy_service  2      2     6m40s  5m12s    0123456789ab  demo@0.1.0',
      '22c13da5-36ab-4f6b-b1f4-61388eb976c9  completed  modern  tools/call  greet           2      1     1d01h  -        -             -',
    ]);
    expect(listLines([])).toEqual(['No exchanges match.']);
  });

  it('names the class of a stuck workflow beside the status of the exchange it ended', () => {
    const [, , line] = listLines([
      {
        id: '5a3c1d6e-0b7e-4d8e-9a51-2f0c7d9e4b10',
        status: 'failed',
        era: 'modern',
        method: 'tools/call',
        target: 'greet',
        rounds: 2,
        asks: 1,
        createdAt: '2026-12-01T12:00:00.000Z',
        ageSeconds: 400,
        error: { code: -32603, message: 'Exchange failed: its workflow could not run', cause: 'non-determinism' },
      },
    ]);
    expect(line).toMatch(/^5a3c1d6e-0b7e-4d8e-9a51-2f0c7d9e4b10 {2}failed \(non-determinism\) {2}modern/);
  });

  it('shows one exchange as fields, then its rounds: what was asked, how it was answered, the outcome', () => {
    const lines = detailLines(
      {
        exchange: {
          id: 'd4c8',
          status: 'failed',
          era: 'modern',
          method: 'tools/call',
          target: 'deploy_service',
          rounds: 3,
          asks: 2,
          createdAt: '2026-12-01T12:00:00.000Z',
          ageSeconds: 75,
          principal: 'anonymous',
          handlerVersion: 'acme-tools@1.2.0',
        },
        workflow: { id: 'exchange-d4c8', status: 'COMPLETED' },
        rounds: [
          {
            round: 1,
            kind: 'ask',
            recordedAt: '2026-12-01T12:00:00.100Z',
            durationMs: 12,
            inputRequests: { roots: { method: 'roots/list' }, approve: { method: 'elicitation/create' } },
            answers: { roots: { roots: [] }, approve: { action: 'decline' } },
            waitedMs: 9_000,
          },
          {
            round: 2,
            kind: 'error',
            recordedAt: '2026-12-01T12:00:09.200Z',
            durationMs: 3,
            error: { code: -32603, message: 'Exchange failed: round 2 could not run to completion' },
          },
        ],
      },
      Date.parse('2026-12-01T12:01:15.000Z'),
    );
    expect(lines.slice(0, 8)).toEqual([
      'Exchange:   d4c8',
      'Status:     failed',
      'Call:       tools/call deploy_service',
      'Era:        modern',
      'Principal:  anonymous',
      'Handlers:   acme-tools@1.2.0',
      'Created:    2026-12-01T12:00:00.000Z (1m15s ago)',
      'Rounds:     3 (2 asks)',
    ]);
    expect(lines).toContain('Workflow:   exchange-d4c8 (COMPLETED)');
    expect(lines.some((line) => line.startsWith('Temporal UI'))).toBe(false);
    const rounds = lines.slice(lines.indexOf('') + 1);
    expect(rounds[0]).toMatch(/^ROUND +KIND +RECORDED +TOOK +ASKED +ANSWERED +WAITED +OUTCOME$/);
    expect(rounds[2]).toMatch(
      /^1 +ask +2026-12-01T12:00:00\.100Z +12ms +roots \(roots\/list\), approve \(elicitation\/create\) +roots, approve: decline +9\.0s +answered$/,
    );
    expect(rounds[3]).toMatch(
      /^2 +error +\S+ +3ms +- +- +- +-32603 Exchange failed: round 2 could not run to completion$/,
    );
  });

  it("shows the caller's display name and verified email beside its key, never instead", () => {
    const lines = detailLines(
      {
        exchange: {
          id: 'd4c8',
          status: 'running',
          era: 'modern',
          method: 'tools/call',
          target: 'refund',
          rounds: 1,
          asks: 1,
          createdAt: '2026-12-01T12:00:00.000Z',
          ageSeconds: 5,
          principal: 'https://id.example.com|x3JqZ8',
          principalName: 'Alice \u202eExample',
          principalEmail: 'alice@example.com',
        },
        workflow: { id: 'exchange-d4c8', status: 'RUNNING' },
        rounds: [],
      },
      Date.parse('2026-12-01T12:00:05.000Z'),
    );
    expect(lines).toContain('Principal:  https://id.example.com|x3JqZ8 (“Alice ⟨U+202E⟩Example”, alice@example.com)');
  });
});
