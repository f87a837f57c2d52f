/**
 * The Temporal SDK's runtime: its own log lines (worker, workflow `log`, activities) routed into
 * pino, and, in a process that serves worker metrics, its own metrics (`temporal_*`: task slots,
 * poll and schedule-to-start latencies, sticky cache, activity and workflow task outcomes) from its
 * Prometheus exporter.
 *
 * The runtime is process-wide and installed once, before the first connection: a process calls
 * exactly one of these at start (the worker main and `npm run dev` with the exporter, the test
 * harness for its logs only), and a second call throws.
 */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../log';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

export interface TemporalRuntimeOptions {
  level?: LogLevel;
  /** `host:port` the SDK's Prometheus exporter binds (its `/metrics`); none, the SDK exports no metrics. */
  prometheusBindAddress?: string;
}

export function installTemporalRuntime(log: Logger, options: TemporalRuntimeOptions = {}): void {
  const temporalLog = log.child({ component: 'temporal' });
  Runtime.install({
    logger: new DefaultLogger(options.level ?? 'INFO', (entry) =>
      temporalLog[PINO_LEVEL[entry.level]]({ ...entry.meta }, entry.message),
    ),
    ...(options.prometheusBindAddress
      ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.prometheusBindAddress } } } }
      : {}),
  });
}

export function installTemporalLogger(log: Logger, level: LogLevel = 'INFO'): void {
  installTemporalRuntime(log, { level });
}
