#!/usr/bin/env node
/**
 * The `durable-mcp` command, for handler authors and operators:
 *
 *   durable-mcp dev [module]            the whole service on embedded defaults, reloading on changes
 *   durable-mcp start [all|api|worker]  production, configured by environment variables
 *   durable-mcp check <module>          validates a handler module's declarations, starting nothing
 */
import { checkCommand } from './check-command';
import { moduleArgument } from './module-argument';
import { devCommand } from './dev-command';
import { SERVICE_ROLES, startCommand } from './start-command';
import type { ServiceRole } from '../stack/service-process';

const USAGE = `Usage:
  durable-mcp dev [module] [--data-dir <dir>] [--no-watch]
      The whole service on embedded defaults (a Temporal dev server with its Web UI, an embedded
      Postgres, the API and the worker) serving the module (a .ts or .js file, a package name or a
      built-in set; default HANDLERS, else demo), restarted when a file in its folder changes.
  durable-mcp start [all|api|worker]
      The service in production, configured by its environment variables (HANDLERS, DATABASE_URL,
      TEMPORAL_ADDRESS, ...); all (the default) runs the API and the worker in one process.
  durable-mcp check <module>
      Loads the module and checks every tool, prompt and resource it declares, starting nothing.
      Exit code 0 when valid, 78 when not.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(64); // EX_USAGE
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const flags = rest.filter((arg) => arg.startsWith('--'));
  const positional = rest.filter((arg, i) => !arg.startsWith('--') && rest[i - 1] !== '--data-dir');
  switch (command) {
    case 'dev': {
      const dataDirAt = rest.indexOf('--data-dir');
      const unknown = flags.filter((flag) => !['--data-dir', '--no-watch'].includes(flag));
      if (unknown.length || positional.length > 1)
        fail(`durable-mcp dev: unexpected ${[...unknown, ...positional.slice(1)].join(' ')}`);
      if (dataDirAt >= 0 && !rest[dataDirAt + 1]) fail('durable-mcp dev: --data-dir needs a folder');
      return devCommand({
        ...(positional[0] ? { handlers: moduleArgument(positional[0]) } : {}),
        ...(dataDirAt >= 0 ? { dataDir: rest[dataDirAt + 1] } : {}),
        watch: !flags.includes('--no-watch'),
      });
    }
    case 'start': {
      const role = (positional[0] ?? 'all') as ServiceRole;
      if (!SERVICE_ROLES.includes(role) || positional.length > 1 || flags.length)
        fail(`durable-mcp start: the role is one of ${SERVICE_ROLES.join(', ')}`);
      return startCommand(role);
    }
    case 'check': {
      if (positional.length !== 1 || flags.length) fail('durable-mcp check: name one module');
      process.exitCode = await checkCommand(moduleArgument(positional[0]!));
      return;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      fail(`durable-mcp: no command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`durable-mcp failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
