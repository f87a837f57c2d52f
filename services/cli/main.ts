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
import { parseCommandLine } from './command-line';
import { startCommand } from './start-command';
import { commandFailure } from '../../lib/start-error';

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

async function main(argv: string[]): Promise<void> {
  const line = parseCommandLine(argv);
  switch (line.command) {
    case 'dev':
      return devCommand({
        ...(line.module ? { handlers: moduleArgument(line.module) } : {}),
        ...(line.dataDir ? { dataDir: line.dataDir } : {}),
        watch: line.watch,
      });
    case 'start':
      return startCommand(line.role);
    case 'check':
      process.exitCode = await checkCommand(moduleArgument(line.module));
      return;
    case 'help':
      process.stdout.write(USAGE);
      return;
    case 'usage-error':
      process.stderr.write(`${line.message}\n\n${USAGE}`);
      process.exit(64); // EX_USAGE
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`durable-mcp failed: ${commandFailure(error)}\n`);
  process.exit(1);
});
