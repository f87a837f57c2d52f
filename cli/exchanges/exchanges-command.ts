/**
 * `durable-mcp exchanges list|show|cancel` (in this repository also `npm run exchanges -- ...`):
 * the admin API from a terminal.
 *
 *   durable-mcp exchanges list [--status running] [--method tools/call] [--target NAME] [--era modern|legacy]
 *                             [--session TAG] [--principal KEY] [--handler-version V] [--older-than S] [--newer-than S]
 *                             [--limit N] [--cursor C] [--all]
 *   durable-mcp exchanges show <exchange id>
 *   durable-mcp exchanges cancel <exchange id> [--reason TEXT]
 *
 * Every command takes `--url` (default ADMIN_URL, else the `durable-mcp dev` stack running here,
 * found wherever it was started (admin-target.ts), else http://127.0.0.1:$PORT or :3000), `--token`
 * (default ADMIN_TOKEN, else that stack's own) and `--json` (the API's answer as it came). Exit codes: EXIT below.
 */
import { parseArgs } from 'node:util';
import { findDevStack } from '../dev/dev-stack-record';
import { CliError, EXIT, type Io } from './admin-requests';
import { adminTarget } from './admin-target';
import { cancel, list, show } from './exchange-commands';

export { EXIT } from './admin-requests';

const USAGE = `usage: durable-mcp exchanges <command> [options]

commands:
  list                 exchanges, newest first
    --status S[,S]     running, completed, failed, expired, capped, cancelled, terminated
    --method M         tools/call, prompts/get, resources/read
    --target NAME      a tool or prompt name, or a resource URI
    --era E            modern or legacy
    --session TAG      a legacy session's tag (as logs name it) or id
    --principal KEY    who the exchanges belong to: a principal's key (anonymous, or issuer|subject[|client])
    --handler-version V
                       started by this version of the handlers, exactly (demo@0.1.0, acme-tools@1.2.0)
    --older-than S     created more than S seconds ago
    --newer-than S     created less than S seconds ago
    --limit N          rows per page (1-200, default 50)
    --cursor C         the page after a previous one
    --all              follow the pages to the end (at most 10000 rows)
  show <id>            one exchange: its rounds (asks, answers, timings, outcome) and Temporal UI link
  cancel <id>          end a running exchange as a client cancel does
    --reason TEXT      what the exchange's error says (default: cancelled by an operator)

options:
  --url URL            the service (default $ADMIN_URL, else the durable-mcp dev stack running here,
                       else http://127.0.0.1:$PORT, port 3000)
  --token TOKEN        the admin token (default $ADMIN_TOKEN, else that dev stack's own)
  --json               print the API's JSON answer instead of tables
  -h, --help           this text

exit codes: 0 ok, 1 server error, 2 usage, 3 unreachable, 4 unauthorized, 5 not found (or admin API off), 6 already ended`;

export async function run(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        status: { type: 'string' },
        method: { type: 'string' },
        target: { type: 'string' },
        era: { type: 'string' },
        session: { type: 'string' },
        principal: { type: 'string' },
        'handler-version': { type: 'string' },
        'older-than': { type: 'string' },
        'newer-than': { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        all: { type: 'boolean' },
        reason: { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return EXIT.ok;
  }
  const [command, id, ...extra] = positionals;
  const usage = (message: string) => {
    io.err(`${message}\n\n${USAGE}`);
    return EXIT.usage;
  };
  if (!command) return usage('a command is needed: list, show or cancel');
  if (!['list', 'show', 'cancel'].includes(command)) return usage(`unknown command: ${command}`);
  if (command === 'list' && id !== undefined) return usage(`list takes no argument (got ${id})`);
  if (command !== 'list' && id === undefined) return usage(`${command} needs an exchange id`);
  if (extra.length > 0) return usage(`unexpected argument: ${extra[0]}`);
  const listOnly = [
    'status',
    'method',
    'target',
    'era',
    'session',
    'principal',
    'handler-version',
    'older-than',
    'newer-than',
    'limit',
    'cursor',
    'all',
  ];
  const misplaced = listOnly.find((name) => command !== 'list' && values[name as keyof typeof values] !== undefined);
  if (misplaced) return usage(`--${misplaced} is an option of list`);
  if (command !== 'cancel' && values.reason !== undefined) return usage('--reason is an option of cancel');

  // In a project `durable-mcp dev` runs in, its own admin token, so the command works as it stands.
  const target = adminTarget(values, io);
  if ('usage' in target) return usage(target.usage);
  const { base, token } = target;

  try {
    switch (command) {
      case 'list':
        return await list(base, token, values, io);
      case 'show':
        return await show(base, token, id!, values.json === true, io);
      default:
        return await cancel(base, token, id!, values.reason, values.json === true, io);
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.err(error.message);
    return error.exitCode;
  }
}

/** Runs with the process's own output and environment: the `durable-mcp exchanges` command. */
export function runInTerminal(argv: string[]): Promise<number> {
  return run(argv, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    devStack: () => findDevStack(process.cwd()),
  });
}
