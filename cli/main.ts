#!/usr/bin/env node
/**
 * The `durable-mcp` command, for handler authors and operators:
 *
 *   durable-mcp dev [module]            the whole service on embedded defaults, reloading on changes
 *   durable-mcp start [all|api|worker]  production, configured by environment variables
 *   durable-mcp check <module>          validates a handler module's declarations, starting nothing
 *   durable-mcp check --upstreams <f>   validates an UPSTREAMS_FILE (its upstreams and policies)
 *   durable-mcp check --quotas <f>      validates a QUOTAS_FILE (its quota rules)
 *   durable-mcp exchanges list|show|cancel  the admin API from a terminal
 *   durable-mcp evidence export|verify  the signed log of decisions on questions, and its offline check
 *   durable-mcp --version, durable-mcp <command> --help
 */
import { checkCommand } from './check-command';
import { checkUpstreamsCommand } from './check-upstreams-command';
import { checkQuotasCommand } from './check-quotas-command';
import { moduleArgument } from './module-argument';
import { devCommand } from './dev-command';
import { parseCommandLine } from './command-line';
import { startCommand } from './start-command';
import { usage } from './usage';
import { runInTerminal } from './exchanges/exchanges-command';
import { runInTerminal as runEvidenceInTerminal } from './evidence/evidence-command';
import { packageVersion } from './package-version';
import { commandFailure } from '../lib/start-error';

async function main(argv: string[]): Promise<void> {
  const line = parseCommandLine(argv);
  switch (line.command) {
    case 'dev':
      return devCommand({
        ...(line.module ? { handlers: moduleArgument(line.module) } : {}),
        ...(line.dataDir ? { dataDir: line.dataDir } : {}),
        ...(line.upstream ? { upstream: line.upstream } : {}),
        watch: line.watch,
        ...(line.watchPaths ? { watchPaths: line.watchPaths } : {}),
      });
    case 'start':
      return startCommand(line.role);
    case 'check':
      process.exitCode = await checkCommand(moduleArgument(line.module));
      return;
    case 'check-upstreams':
      process.exitCode = checkUpstreamsCommand(line.file);
      return;
    case 'check-quotas':
      process.exitCode = checkQuotasCommand(line.file);
      return;
    case 'exchanges':
      process.exitCode = await runInTerminal(line.argv);
      return;
    case 'evidence':
      process.exitCode = await runEvidenceInTerminal(line.argv);
      return;
    case 'help':
      process.stdout.write(usage(line.topic));
      return;
    case 'version':
      process.stdout.write(`durable-mcp ${packageVersion()}\n`);
      return;
    case 'usage-error':
      process.stderr.write(`${line.message}\n\n${usage()}`);
      process.exit(64); // EX_USAGE
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`durable-mcp failed: ${commandFailure(error)}\n`);
  process.exit(1);
});
