/**
 * What the official `postgres` image does, with Debian's Postgres: on an empty data folder,
 * `initdb` with POSTGRES_USER as the superuser and POSTGRES_PASSWORD as its password (password
 * logins over TCP, trust on the local socket, `host all all all scram-sha-256` as the image
 * appends), then a socket-only server for the `/docker-entrypoint-initdb.d` scripts (`*.sh` run by
 * sh with the service's environment, `*.sql` through psql) and POSTGRES_DB created unless it is
 * `postgres`; on a folder that holds a cluster, none of that. Then the server with the service's
 * `command` arguments (`-c max_connections=...`), on its own address and compose's port.
 *
 * Postgres refuses to run as root: as root, initdb and the server run as the `postgres` OS user
 * (setpriv, which execs, so a signal to the server reaches the postmaster itself).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnChild, type Child } from '../../cli/dev/child-processes';

export interface PostgresImageOptions {
  /** The named volume: the cluster lives in `<dataDir>/data`, its socket in `<dataDir>/run`. */
  dataDir: string;
  address: string;
  port: number;
  /** The service's environment (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, and what its scripts read). */
  environment: Record<string, string>;
  /** The host folder mounted at /docker-entrypoint-initdb.d, if any. */
  initScripts?: string;
  /** The arguments after `postgres` in the service's command. */
  serverArgs: string[];
  logFile: string;
}

/** Debian's newest Postgres server binaries (PG_BIN_DIR overrides). */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest || !existsSync(path.join(root, newest, 'bin', 'postgres')))
    throw new Error('no Postgres server in /usr/lib/postgresql: apt-get install postgresql (or set PG_BIN_DIR)');
  return path.join(root, newest, 'bin');
}

const asRoot = () => process.getuid?.() === 0;

/** `command args` as the postgres OS user when we are root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  if (!asRoot()) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

/** Makes `folder` (if absent) and gives it to the postgres OS user when we are root. */
function give(folder: string): void {
  mkdirSync(path.dirname(folder), { recursive: true }); // the folders above stay traversable
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  toPostgres(folder);
}

function toPostgres(file: string): void {
  if (!asRoot()) return;
  const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (ids.status !== 0)
    throw new Error('running as root needs a postgres OS user (apt-get install postgresql makes it)');
  const uid = Number(ids.stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  chownSync(file, uid, gid);
}

function runChecked(what: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const out = spawnSync(command, args, { env, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${what} failed (exit ${out.status}): ${out.stdout}${out.stderr}`);
}

/** Initialises the cluster when the folder is new (as the image's entrypoint does), then starts the server. */
export function startPostgresImage(options: PostgresImageOptions): Child {
  const bin = postgresBinDir();
  const data = path.join(options.dataDir, 'data');
  const socketDir = path.join(options.dataDir, 'run');
  give(options.dataDir);
  give(socketDir);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, LANG: 'C.UTF-8' };
  if (!existsSync(path.join(data, 'PG_VERSION'))) initialise(options, bin, data, socketDir, env);
  const [command, args] = asPostgres(path.join(bin, 'postgres'), [
    '-D',
    data,
    '-c',
    `listen_addresses=${options.address}`,
    '-p',
    String(options.port),
    '-k',
    socketDir,
    ...options.serverArgs,
  ]);
  return spawnChild('postgresql', command, args, { env, cwd: options.dataDir, logFile: options.logFile });
}

function initialise(
  options: PostgresImageOptions,
  bin: string,
  data: string,
  socketDir: string,
  env: Record<string, string>,
): void {
  const superuser = options.environment.POSTGRES_USER || 'postgres';
  const password = options.environment.POSTGRES_PASSWORD;
  if (!password)
    throw new Error('postgresql: POSTGRES_PASSWORD is empty (the image refuses to initialise without one)');
  rmSync(data, { recursive: true, force: true });
  give(data);
  const pwfile = path.join(options.dataDir, 'run', '.pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  toPostgres(pwfile);
  try {
    const [initdb, initArgs] = asPostgres(path.join(bin, 'initdb'), [
      '-D',
      data,
      `--username=${superuser}`,
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
    ]);
    runChecked('initdb', initdb, initArgs, env);
  } finally {
    rmSync(pwfile, { force: true });
  }
  appendFileSync(path.join(data, 'pg_hba.conf'), '\nhost all all all scram-sha-256\n');

  // The scripts run against a server that listens on the socket only, as in the image. Its log
  // goes to a file: the server outlives pg_ctl, and would hold a pipe to us open.
  const [pgctl, ctlArgs] = asPostgres(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(socketDir, 'initialisation.log'),
    '-o',
    `-c listen_addresses='' -p ${options.port} -k ${socketDir}`,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  runChecked('the initialisation server', pgctl, ctlArgs, env);
  try {
    const client = {
      ...env,
      ...options.environment,
      PGHOST: socketDir,
      PGPORT: String(options.port),
      PGUSER: superuser,
    };
    const database = options.environment.POSTGRES_DB || superuser;
    if (database !== 'postgres')
      runChecked(
        'creating POSTGRES_DB',
        path.join(bin, 'psql'),
        ['-v', 'ON_ERROR_STOP=1', '-d', 'postgres', '-c', `CREATE DATABASE "${database}"`],
        client,
      );
    const scripts =
      options.initScripts && existsSync(options.initScripts) ? readdirSync(options.initScripts).sort() : [];
    for (const script of scripts) {
      const file = path.join(options.initScripts!, script);
      if (script.endsWith('.sh')) runChecked(script, 'sh', [file], client);
      else if (script.endsWith('.sql'))
        runChecked(script, path.join(bin, 'psql'), ['-v', 'ON_ERROR_STOP=1', '-d', database, '-f', file], client);
    }
  } finally {
    const [stop, stopArgs] = asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    runChecked('stopping the initialisation server', stop, stopArgs, env);
  }
}
