/**
 * The time-skipping test server as the helper (time-skipping.ts) finds and quiets it: where its
 * binary is, the search attribute types it registers, and the SDK runtime's console output sent to
 * the helper's log.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import type { Logger } from '../lib/log';

/** The environment variable naming the test server binary. */
export const TEST_SERVER_PATH_VARIABLE = 'TEMPORAL_TEST_SERVER_PATH';
const TEST_SERVER_BINARY = 'temporal-test-server';

/** The test server binary: the option, `TEMPORAL_TEST_SERVER_PATH`, or `temporal-test-server` on PATH; undefined when none is there. */
export function findTestServer(explicit?: string): string | undefined {
  const configured = explicit ?? process.env[TEST_SERVER_PATH_VARIABLE];
  if (configured) return configured;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, TEST_SERVER_BINARY);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export const INDEXED_TYPES: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  TEXT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  INT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DOUBLE: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  BOOL: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KEYWORD_LIST: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

let runtimeQuieted = false;
/**
 * The SDK's process-wide runtime prints to the console, its native side too (the test server does
 * not advertise every capability a worker looks for, and the worker warns of it): here everything
 * it says at WARN or above goes to `log` instead, which is silent unless the test passed its own.
 */
export function quietTemporalRuntime(log: Logger): void {
  if (runtimeQuieted) return;
  runtimeQuieted = true;
  const temporalLog = log.child({ component: 'temporal' });
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) =>
        temporalLog[entry.level === 'ERROR' ? 'error' : 'warn']({ ...entry.meta }, entry.message),
      ),
      telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
    });
  } catch {
    // Someone installed the runtime already: theirs stays.
  }
}
