/**
 * Which service a terminal command of the admin API talks to, and with which token: `--url` and
 * `--token`, else ADMIN_URL and ADMIN_TOKEN, else the `durable-mcp dev` stack running here (its
 * record, dev/dev-stack-record.ts: its port and its token, wherever it was started), else the
 * default port (PORT, 3000) with a token a dev stack left in a data folder here. A token found so
 * is sent only to the stack it belongs to, never to a `--url` naming another service.
 */
import type { DevStackFound } from '../dev/dev-stack-record';
import type { Io } from './admin-requests';

export interface AdminTarget {
  base: string;
  token: string;
}

/** The target, or the usage error that says why there is none. */
export function adminTarget(values: { url?: string; token?: string }, io: Io): AdminTarget | { usage: string } {
  const explicitUrl = values.url ?? io.env.ADMIN_URL;
  const explicitToken = values.token ?? io.env.ADMIN_TOKEN;
  const found: DevStackFound | undefined = explicitUrl && explicitToken ? undefined : io.devStack?.();
  if (found?.kind === 'ambiguous' && !explicitUrl) {
    const stacks = found.records.map((record) => `${record.url} (started in ${record.cwd})`).join(', ');
    return { usage: `several durable-mcp dev stacks run: ${stacks}; pass --url, or run this in one's folder` };
  }
  const running = found?.kind === 'running' ? found : undefined;
  // A token found here goes only where it came from: never to a --url of another service.
  const foundToken = explicitUrl
    ? running && sameService(running.record.url, explicitUrl)
      ? running.token
      : undefined
    : (running?.token ?? (found?.kind === 'token-only' ? found.token : undefined));
  const token = explicitToken ?? foundToken;
  if (!token)
    return {
      usage: running
        ? `no admin token: the dev stack at ${running.record.url} runs with ADMIN_TOKEN set; pass --token or set ADMIN_TOKEN`
        : 'no admin token: pass --token or set ADMIN_TOKEN (in a folder where durable-mcp dev runs, its own is used)',
    };
  const base = (explicitUrl ?? running?.record.url ?? `http://127.0.0.1:${io.env.PORT ?? 3000}`).replace(/\/+$/, '');
  if (!/^https?:\/\/\S+$/.test(base)) return { usage: `--url must be an http:// or https:// URL (got ${base})` };
  return { base, token };
}

/** Whether two base URLs name the same service (a trailing slash apart). */
const sameService = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
