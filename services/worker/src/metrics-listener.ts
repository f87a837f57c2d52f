/**
 * The worker's metrics listener (WORKER_METRICS_HOST:WORKER_METRICS_PORT): `GET /metrics` answers
 * the worker's own metrics (lib/metrics/worker-metrics.ts) followed by the Temporal SDK's, read at
 * each scrape from the SDK runtime's Prometheus exporter, which listens on a loopback port of its
 * own. One scrape target per worker, then, with both; if the SDK's exporter does not answer, the
 * worker's own metrics are still served, with a comment line saying so.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokenCheck } from '../../../lib/auth/bearer-token';
import type { Logger } from '../../../lib/log';
import { workerRegistry } from '../../../lib/metrics/worker-metrics';

export interface WorkerMetricsListener {
  url: string;
  close(): Promise<void>;
}

export interface WorkerMetricsOptions {
  host: string;
  port: number;
  /** The SDK exporter's metrics URL (`http://127.0.0.1:<port>/metrics`), when the runtime exports them. */
  sdkMetricsUrl?: string;
  /** METRICS_TOKEN: when set, a scrape must carry it as a bearer token. */
  token?: string;
  log: Logger;
}

/** How long a scrape waits for the SDK's exporter. */
const SDK_SCRAPE_TIMEOUT_MS = 2_000;

/** A loopback port free right now, for the SDK's exporter (the runtime binds it when it is installed). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function sdkMetrics(url: string | undefined): Promise<string> {
  if (!url) return '';
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SDK_SCRAPE_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    return text.endsWith('\n') || text === '' ? text : `${text}\n`;
  } catch (error) {
    return `# Temporal SDK metrics unavailable: ${String((error as Error).message ?? error).replace(/\s+/g, ' ')}\n`;
  }
}

export function startWorkerMetricsListener(options: WorkerMetricsOptions): Promise<WorkerMetricsListener> {
  const check = options.token !== undefined ? bearerTokenCheck(options.token) : undefined;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: the worker serves GET /metrics only\n');
      return;
    }
    if (check && check(req.headers.authorization) !== 'valid') {
      res
        .writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="durable-mcp metrics"' })
        .end('an Authorization: Bearer <METRICS_TOKEN> header is required\n');
      return;
    }
    Promise.all([workerRegistry.metrics(), sdkMetrics(options.sdkMetricsUrl)]).then(
      ([own, sdk]) => {
        res.writeHead(200, { 'Content-Type': workerRegistry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : `${own}${own.endsWith('\n') ? '' : '\n'}${sdk}`);
      },
      (error: unknown) => {
        options.log.warn({ err: error }, 'worker metrics could not be collected');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/metrics`;
      options.log.info({ url, sdkMetrics: options.sdkMetricsUrl !== undefined }, 'worker metrics listening');
      resolve({
        url,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
