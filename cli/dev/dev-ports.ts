/**
 * Every port `durable-mcp dev` opens, by name and by the variable that moves it: the API's (which
 * also serves the answer page), the Temporal dev server's and its Web UI's, the worker's metrics
 * and, when Postgres is embedded, Postgres's. They are checked before anything starts, so a port
 * another process holds (a second dev stack, say) is reported in one line that says which it is
 * and how to move it, instead of a failure halfway through the start or a warning the user misses.
 */
import { createServer } from 'node:net';

import type { LocalStack } from './local-stack/local-stack';

export interface DevPort {
  /** What listens on it, as the user knows it ("the API and answer page"). */
  what: string;
  /** The variable that moves it. */
  variable: string;
  /** The port (0: one picked at start). */
  port: number;
  /** The address it is bound on. */
  host: string;
}

/** The ports a dev stack opens with `env`; Temporal's and Postgres's only when it starts them itself. */
export function devPorts(env: NodeJS.ProcessEnv): DevPort[] {
  const port = (name: string, fallback: number) =>
    env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  const ports: DevPort[] = [
    { what: 'the API and answer page', variable: 'PORT', port: port('PORT', 3000), host: env.HOST || '127.0.0.1' },
  ];
  if (!env.TEMPORAL_ADDRESS) {
    ports.push({
      what: 'the Temporal dev server',
      variable: 'TEMPORAL_DEV_PORT',
      port: port('TEMPORAL_DEV_PORT', 7233),
      host: '127.0.0.1',
    });
    // 0 is no Web UI at all, not a port picked for it.
    const ui = port('TEMPORAL_DEV_UI_PORT', 8233);
    if (ui !== 0)
      ports.push({ what: "Temporal's Web UI", variable: 'TEMPORAL_DEV_UI_PORT', port: ui, host: '127.0.0.1' });
  }
  const metrics = port('WORKER_METRICS_PORT', 9464);
  if (metrics !== 0)
    ports.push({
      what: "the worker's metrics",
      variable: 'WORKER_METRICS_PORT',
      port: metrics,
      host: env.WORKER_METRICS_HOST || '127.0.0.1',
    });
  if (!env.DATABASE_URL)
    ports.push({
      what: 'the embedded Postgres',
      variable: 'POSTGRES_DEV_PORT',
      port: port('POSTGRES_DEV_PORT', 0),
      host: '127.0.0.1',
    });
  return ports;
}

/** A port value that is not one: what to say about it, else undefined. */
export function invalidPort(port: DevPort): string | undefined {
  return Number.isInteger(port.port) && port.port >= 0 && port.port <= 65535
    ? undefined
    : `${port.variable} is not a port (0-65535): ${String(port.port)}`;
}

/** The one line for a port another process holds: which, whose, and how to move it. */
export function heldPortLine(port: DevPort): string {
  const off = port.variable === 'WORKER_METRICS_PORT' ? ', or 0 to turn it off' : '';
  return `port ${port.port} (${port.what}) is in use by another process: set ${port.variable} to a free port${off} (e.g. ${port.variable}=${suggestion(port)} durable-mcp dev)`;
}

/** The ports chosen, for the line dev prints at start. */
export function portsLine(ports: readonly DevPort[]): string {
  return ports
    .map((port) => `${port.what} ${port.port === 0 ? 'picked at start' : port.port} (${port.variable})`)
    .join(', ');
}

const suggestion = (port: DevPort) => (port.port > 0 && port.port < 65535 ? port.port + 1 : 0);

/** Whether another process holds `port` on `host` now (a port of 0 never is). */
export function isHeld(port: DevPort): Promise<boolean> {
  if (port.port === 0) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(true) : reject(error),
    );
    probe.listen({ port: port.port, host: port.host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** The port of `variable`'s entry, as declared (0: picked at start). */
export const portOf = (ports: readonly DevPort[], variable: string) =>
  ports.find((port) => port.variable === variable)?.port;

/** The ports as bound: those picked at start (0) read back from what started. */
export function chosenPorts(ports: readonly DevPort[], apiPort: number, local: LocalStack): DevPort[] {
  const portIn = (url: string | undefined) => (url ? Number(/:(\d+)(?:\/|$)/.exec(url)?.[1] ?? 0) : 0);
  const bound: Record<string, number> = {
    PORT: apiPort,
    TEMPORAL_DEV_PORT: portIn(local.temporalAddress),
    TEMPORAL_DEV_UI_PORT: portIn(local.temporalUiUrl),
    POSTGRES_DEV_PORT: portIn(local.databaseUrl.replace(/\/[^/]*$/, '/')),
  };
  return ports.map((port) => ({ ...port, port: port.port || bound[port.variable] || 0 }));
}

export function workerMetricsUrl(ports: readonly DevPort[]): string {
  const metrics = ports.find((port) => port.variable === 'WORKER_METRICS_PORT');
  return metrics ? `http://${metrics.host}:${metrics.port}/metrics` : '(off: WORKER_METRICS_PORT=0)';
}
