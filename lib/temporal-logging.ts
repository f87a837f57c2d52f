/** Routes the Temporal SDK's own log lines (worker, workflow `log`, activities) into pino. */
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from './log';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

export function installTemporalLogger(log: Logger, level: LogLevel = 'INFO'): void {
  const temporalLog = log.child({ component: 'temporal' });
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => temporalLog[PINO_LEVEL[entry.level]]({ ...entry.meta }, entry.message)),
  });
}
