/**
 * Starting the time-skipping test server on a busy machine. The SDK gives the server a fixed 5 s
 * to answer (not configurable) and, when it does not, kills it and throws; a shared CI machine
 * running other suites can need longer for the first start. A start that timed out is tried
 * again, a few times; any other error (no binary, a bad download) is thrown at once.
 */

/** How many starts are tried before the last timeout is thrown. */
export const TEST_SERVER_START_ATTEMPTS = 4;

const STARTUP_TIMEOUT = /did not start within/;

/**
 * Whether `error` is the SDK's startup timeout, which a later attempt may not hit. Read by its
 * message, not `instanceof Error`: the SDK's native bridge makes its errors in another realm than
 * a test runner's sandbox (jest's), where `instanceof Error` is false.
 */
export function isStartupTimeout(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && STARTUP_TIMEOUT.test(message);
}

/** Runs `start` until it succeeds, trying again only after a startup timeout. */
export async function startWithRetries<T>(
  start: () => Promise<T>,
  attempts: number = TEST_SERVER_START_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !isStartupTimeout(error)) throw error;
    }
  }
}
