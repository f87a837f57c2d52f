/**
 * What a running `durable-mcp dev` tells the commands that talk to it (`durable-mcp exchanges`,
 * `durable-mcp evidence`): where its API is and where its admin token is kept. A stack writes it
 * once it serves, and removes it when it stops, in two places:
 *
 * - `dev-stack.json` in its data folder (`.durable-mcp/` by default, `.data/` for `npm run dev` in
 *   a clone of this repository), found from the stack's folder or any folder below it;
 * - a copy under the user's state folder (`$XDG_STATE_HOME/durable-mcp/dev-stacks/<pid>.json`, else
 *   `~/.local/state/...`), found from anywhere: the stack a terminal in another folder means when
 *   only one runs, or the one whose folder holds the working directory.
 *
 * A record whose process is gone (a stack killed) is ignored and, in the state folder, removed.
 * The token itself stays in the data folder (`dev-admin-token`); records name it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEV_ADMIN_TOKEN_FILE } from './dev-key-ring';

export interface DevStackRecord {
  /** The `durable-mcp dev` process. */
  pid: number;
  /** The API's origin, `http://127.0.0.1:3000`. */
  url: string;
  /** Its data folder (absolute). */
  dataDir: string;
  /** The folder it was started in. */
  cwd: string;
  /** The file its admin token is in; absent when ADMIN_TOKEN was set (then the token is the user's). */
  tokenFile?: string;
}

export const RECORD_FILE = 'dev-stack.json';
/** The data folders a dev stack is started with: `durable-mcp dev`'s default, and `npm run dev`'s. */
export const DATA_FOLDERS = ['.durable-mcp', '.data'] as const;

export function devStacksFolder(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME || path.join(env.HOME || homedir(), '.local', 'state');
  return path.join(state, 'durable-mcp', 'dev-stacks');
}

/** Writes the record of a stack that serves; returns what removes it again. */
export function recordDevStack(record: DevStackRecord, env: NodeJS.ProcessEnv = process.env): () => void {
  const files = [path.join(record.dataDir, RECORD_FILE), path.join(devStacksFolder(env), `${record.pid}.json`)];
  for (const file of files) {
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    } catch {
      // a folder it may not write: the other record, or --url and --token, still find it
    }
  }
  return () => {
    for (const file of files) rmSync(file, { force: true });
  };
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(file: string): DevStackRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<DevStackRecord>;
    if (typeof record.pid !== 'number' || typeof record.url !== 'string' || typeof record.dataDir !== 'string')
      return undefined;
    return record as DevStackRecord;
  } catch {
    return undefined;
  }
}

/** `folder` and every folder above it, nearest first. */
function upwards(folder: string): string[] {
  const folders: string[] = [];
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    folders.push(at);
    if (path.dirname(at) === at) return folders;
  }
}

const contains = (folder: string, inner: string) => {
  const relative = path.relative(folder, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

export type DevStackFound =
  | { kind: 'running'; record: DevStackRecord; token?: string }
  /** No stack runs that can be told apart from the others: their records, for the message. */
  | { kind: 'ambiguous'; records: DevStackRecord[] }
  /** No stack runs, but a data folder here keeps a token (a stack stopped, or one from before records). */
  | { kind: 'token-only'; token: string; tokenFile: string };

const readToken = (file: string | undefined) => {
  if (!file || !existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim() || undefined;
};

/** The dev stack a command run in `cwd` means, if any can be told. */
export function findDevStack(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  isAlive: (pid: number) => boolean = processIsAlive,
): DevStackFound | undefined {
  const running = (record: DevStackRecord): DevStackFound => ({
    kind: 'running',
    record,
    ...(readToken(record.tokenFile) ? { token: readToken(record.tokenFile)! } : {}),
  });
  // The stack of this folder or one above it.
  for (const folder of upwards(cwd))
    for (const data of DATA_FOLDERS) {
      const record = readRecord(path.join(folder, data, RECORD_FILE));
      if (record && isAlive(record.pid)) return running(record);
    }
  // Any stack running on this machine for this user.
  const registry = devStacksFolder(env);
  const live: DevStackRecord[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(registry).filter((name) => name.endsWith('.json'));
  } catch {
    // no stack ever recorded one
  }
  for (const name of names) {
    const record = readRecord(path.join(registry, name));
    if (record && isAlive(record.pid)) live.push(record);
    else rmSync(path.join(registry, name), { force: true });
  }
  const around = live.filter((record) => contains(record.cwd, cwd) || contains(record.dataDir, cwd));
  if (around.length === 1) return running(around[0]!);
  if (live.length === 1) return running(live[0]!);
  if (live.length > 1) return { kind: 'ambiguous', records: live };
  // No stack runs: a token a stack left here still serves a service started on the default port.
  for (const folder of upwards(cwd))
    for (const data of DATA_FOLDERS) {
      const tokenFile = path.join(folder, data, DEV_ADMIN_TOKEN_FILE);
      const token = readToken(tokenFile);
      if (token) return { kind: 'token-only', token, tokenFile };
    }
  return undefined;
}
