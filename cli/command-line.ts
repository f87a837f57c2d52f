/** What a `durable-mcp` command line asks for, or why it cannot be run (a usage error). */
import type { ServiceRole } from './start/service-process';

export const SERVICE_ROLES: readonly ServiceRole[] = ['all', 'api', 'worker'];

export type Command =
  | {
      command: 'dev';
      module?: string;
      dataDir?: string;
      upstream?: string;
      watch: boolean;
      /** `--watch <path>` (repeatable): more files or folders to reload on, besides the module's own files. */
      watchPaths?: string[];
    }
  | { command: 'start'; role: ServiceRole }
  | { command: 'check'; module: string }
  /** `check --upstreams <file>`: an UPSTREAMS_FILE, read as the service reads it. */
  | { command: 'check-upstreams'; file: string }
  /** `check --quotas <file>`: a QUOTAS_FILE, read as the service reads it. */
  | { command: 'check-quotas'; file: string }
  /** The admin API from a terminal: the rest of the line is its own (exchanges/exchanges-command.ts). */
  | { command: 'exchanges'; argv: string[] }
  /** The evidence log's exports and their verification: the rest of the line is its own (evidence/evidence-command.ts). */
  | { command: 'evidence'; argv: string[] }
  | { command: 'help'; topic?: HelpTopic }
  | { command: 'version' }
  | { command: 'usage-error'; message: string };

/** The commands that have help of their own. */
export const HELP_TOPICS = ['dev', 'start', 'check'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];
const isTopic = (value: string | undefined): value is HelpTopic => HELP_TOPICS.includes(value as HelpTopic);

export function parseCommandLine(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === 'exchanges') return { command: 'exchanges', argv: rest };
  if (command === 'evidence') return { command: 'evidence', argv: rest };
  // `durable-mcp <command> --help` is that command's help, whatever else the line says.
  if (isTopic(command) && (rest.includes('--help') || rest.includes('-h'))) return { command: 'help', topic: command };
  // The flags that take a value: the argument after each is theirs, not a positional one.
  const valueAt = (flag: string) => rest.indexOf(flag);
  const dataDirAt = valueAt('--data-dir');
  const upstreamAt = valueAt('--upstream');
  const upstreamsAt = valueAt('--upstreams');
  const quotasAt = valueAt('--quotas');
  const watchAts = rest.flatMap((arg, i) => (arg === '--watch' ? [i] : []));
  const values = new Set(
    [dataDirAt, upstreamAt, upstreamsAt, quotasAt, ...watchAts].filter((at) => at >= 0).map((at) => at + 1),
  );
  const flags = rest.filter((arg) => arg.startsWith('-'));
  const positional = rest.filter((arg, i) => !arg.startsWith('-') && !values.has(i));
  const usageError = (message: string): Command => ({ command: 'usage-error', message });
  switch (command) {
    case 'dev': {
      const unknown = flags.filter((flag) => !['--data-dir', '--upstream', '--no-watch', '--watch'].includes(flag));
      if (unknown.length || positional.length > 1)
        return usageError(`durable-mcp dev: unexpected ${[...unknown, ...positional.slice(1)].join(' ')}`);
      const dataDir = dataDirAt >= 0 ? rest[dataDirAt + 1] : undefined;
      if (dataDirAt >= 0 && (!dataDir || dataDir.startsWith('-')))
        return usageError('durable-mcp dev: --data-dir needs a folder');
      const upstream = upstreamAt >= 0 ? rest[upstreamAt + 1] : undefined;
      if (upstreamAt >= 0 && !/^https?:\/\//.test(upstream ?? ''))
        return usageError("durable-mcp dev: --upstream needs an MCP server's http(s) URL");
      const watchPaths = watchAts.map((at) => rest[at + 1]);
      if (watchPaths.some((watched) => !watched || watched.startsWith('-')))
        return usageError('durable-mcp dev: --watch needs a file or folder');
      if (watchPaths.length && flags.includes('--no-watch'))
        return usageError('durable-mcp dev: --watch and --no-watch do not go together');
      return {
        command: 'dev',
        ...(positional[0] ? { module: positional[0] } : {}),
        ...(dataDir ? { dataDir } : {}),
        ...(upstream ? { upstream } : {}),
        watch: !flags.includes('--no-watch'),
        ...(watchPaths.length ? { watchPaths: watchPaths as string[] } : {}),
      };
    }
    case 'start': {
      const role = (positional[0] ?? 'all') as ServiceRole;
      if (!SERVICE_ROLES.includes(role) || positional.length > 1 || flags.length)
        return usageError(`durable-mcp start: the role is one of ${SERVICE_ROLES.join(', ')}`);
      return { command: 'start', role };
    }
    case 'check':
      if (upstreamsAt >= 0) {
        const file = rest[upstreamsAt + 1];
        if (!file || file.startsWith('-') || positional.length || flags.length !== 1)
          return usageError('durable-mcp check: --upstreams needs one file, and nothing else');
        return { command: 'check-upstreams', file };
      }
      if (quotasAt >= 0) {
        const file = rest[quotasAt + 1];
        if (!file || file.startsWith('-') || positional.length || flags.length !== 1)
          return usageError('durable-mcp check: --quotas needs one file, and nothing else');
        return { command: 'check-quotas', file };
      }
      if (positional.length !== 1 || flags.length) return usageError('durable-mcp check: name one module');
      return { command: 'check', module: positional[0]! };
    case 'help':
      if (rest[0] === undefined) return { command: 'help' };
      return isTopic(rest[0])
        ? { command: 'help', topic: rest[0] }
        : usageError(`durable-mcp help: no command ${rest[0]}`);
    case undefined:
    case '--help':
    case '-h':
      return { command: 'help' };
    case 'version':
    case '--version':
    case '-v':
      return { command: 'version' };
    default:
      return usageError(`durable-mcp: no command ${command}`);
  }
}
