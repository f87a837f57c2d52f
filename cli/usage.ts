/** The help of the `durable-mcp` command: all of it, or one command's (`durable-mcp <command> --help`). */
import type { HelpTopic } from './command-line';

const HELP: Record<HelpTopic, string> = {
  dev: `  durable-mcp dev [module] [--upstream <url>] [--data-dir <dir>] [--watch <path>]... [--no-watch]
      The whole service on embedded defaults (a Temporal dev server with its Web UI, an embedded
      Postgres, the API and the worker) serving the module (a .ts or .js file, a package name or a
      built-in set; default HANDLERS, else demo), restarted when the module or a local file it
      imports (transitively; not node_modules) changes; --watch adds a file or folder to that.
      --upstream puts it in front of an MCP server (2026-07-28, Streamable HTTP): that server's
      tools are served as durable exchanges (UPSTREAM_URL; with no module, none of its own).
      Its data and secrets stay in --data-dir (default .durable-mcp, which ignores itself for git).
      Ports, each moved by its variable (0 picks a free one): PORT 3000 (the API and answer page),
      TEMPORAL_DEV_PORT 7233 and TEMPORAL_DEV_UI_PORT 8233 (Temporal and its Web UI),
      WORKER_METRICS_PORT 9464 (0: off), POSTGRES_DEV_PORT (the embedded Postgres; picked).
      A port another process holds stops the start with one line naming it and its variable.
`,
  start: `  durable-mcp start [all|api|worker]
      The service in production, configured by its environment variables (HANDLERS, DATABASE_URL,
      TEMPORAL_ADDRESS, ...); all (the default) runs the API and the worker in one process.
`,
  check: `  durable-mcp check <module>
      Loads the module and checks every tool, prompt and resource it declares, starting nothing.
  durable-mcp check --upstreams <file>
      Reads an UPSTREAMS_FILE as the service does (its upstreams, credentials' variables, policies,
      and each upstream's calls against HANDLER_TIMEOUT_MS, or LOCAL_HANDLER_TIMEOUT_MS for
      roundActivity 'local', in this environment).
  durable-mcp check --quotas <file>
      Reads a QUOTAS_FILE as the service does (its quota rules; a rule per tenant needs
      TENANT_CLAIM and AUTH_MODE=oauth in this environment).
      Exit code 0 when valid, 78 when not.
`,
};

const FOOTER = `  durable-mcp exchanges list|show|cancel [options]
      The running service's exchanges, from its admin API (ADMIN_URL, ADMIN_TOKEN):
      durable-mcp exchanges --help for the options.
  durable-mcp evidence export|verify [options]
      The signed, hash-linked log of every decision on a question: export one exchange's or a time
      range's entries from the admin API, and verify a file offline against the service's public
      keys: durable-mcp evidence --help for the options.
  durable-mcp --version
      The version of durable-mcp.
  durable-mcp <command> --help
      That command's help.
`;

export function usage(topic?: HelpTopic): string {
  return topic ? `Usage:\n${HELP[topic]}` : `Usage:\n${Object.values(HELP).join('')}${FOOTER}`;
}
