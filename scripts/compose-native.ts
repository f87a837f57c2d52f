/**
 * `npm run compose:native`: docker-compose.yml run as OS processes, without Docker
 * (scripts/compose-native): Postgres (Debian's) with compose's initdb scripts, the schema job,
 * the Temporal server built from its Go module at compose's version, the namespace job, the API
 * and the worker from dist/, each on a loopback address of its own with compose's environment.
 * Variables come from `.env` and the shell (the shell wins), as compose reads them; the secrets
 * compose requires must be set (cp .env.example .env). Services of a profile run when it is named
 * (`--profile NAME`, or COMPOSE_PROFILES=a,b), as with docker compose. Ctrl-C stops everything.
 *
 *   npm run compose:native                                   # the topology
 *   npm run compose:native -- -f deploy/compose.temporal-mtls.yml   # with an override file
 *   UPSTREAM_URL=http://upstream-example:8000/mcp npm run compose:native -- --profile upstream-example
 *   npm run compose:native -- build                          # only build Temporal (cached per machine)
 *
 * STACK_DATA_DIR (default .data/compose-native) keeps the volumes and each service's log.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startNativeTopology } from './compose-native/compose-native';
import { readComposeProject } from './compose-native/compose-project';
import { readDotEnv } from './compose-native/dot-env';
import { temporalImage } from './compose-native/native-images';
import { ensureTemporalServer, imageVersion } from './compose-native/temporal-server-build';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { stopOnSignal } from '../cli/start/stop-on-signal';

const ROOT = projectRoot();
const DATA_DIR = path.resolve(process.env.STACK_DATA_DIR ?? path.join(ROOT, '.data', 'compose-native'));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = [path.join(ROOT, 'docker-compose.yml')];
  const named: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-f' && args[i + 1]) files.push(path.resolve(args[++i]!));
    else if (args[i] === '--profile' && args[i + 1]) named.push(args[++i]!);
  }
  const variables = { ...readDotEnv(path.join(ROOT, '.env')), ...process.env };
  // As compose: --profile flags, else COMPOSE_PROFILES (from the shell or .env).
  const profiles = named.length ? named : (variables.COMPOSE_PROFILES ?? '').split(',').filter(Boolean);
  const log = createLogger('compose-native', process.env.LOG_LEVEL ?? 'info');

  if (args[0] === 'build') {
    const image = temporalImage(readComposeProject(files, { ...placeholderSecrets(files), ...variables }).services);
    if (!image) throw new Error('the compose file has no temporalio/server service');
    const build = await ensureTemporalServer(imageVersion(image), (line) => log.info(line));
    process.stdout.write(`Temporal server ${build.version}: ${build.server}\n`);
    return;
  }

  // A Ctrl-C while it starts ends the processes started so far with this one (child-processes.ts).
  const topology = await startNativeTopology({
    files,
    variables,
    profiles,
    dataDir: DATA_DIR,
    log: (line) => log.info(line),
  });
  stopOnSignal({ log, label: 'native compose topology', stop: () => topology.stopAll() });
  const api = topology.services.api!;
  process.stdout.write(
    [
      '',
      `  MCP endpoint  http://${topology.published('api', Number(api.environment.PORT))}/mcp`,
      `  Temporal      ${topology.published('temporal', 7233)}`,
      `  Postgres      ${topology.endpoint('postgresql', 5432)}`,
      ...Object.entries(topology.notRun).map(([name, why]) => `  not run       ${name}: ${why}`),
      `  Logs, data    ${DATA_DIR}`,
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** `build` needs only the image's version: secrets compose requires are not asked for it. */
function placeholderSecrets(files: string[]): Record<string, string> {
  const required = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!),
  );
  return Object.fromEntries(required.filter((name) => !process.env[name]).map((name) => [name, 'unused']));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
