/**
 * A service process that cannot reach Postgres ends at once with one line saying where and which
 * variable to check, as a Temporal it cannot reach does: never a stack trace, never a password.
 */
import { freePort } from '../../cli/dev/local-stack/free-port';
import { TEST_KEY_RINGS } from '../support/test-service';
import { apiProcessExit } from '../support/api-process-exit';

it('ends the API process with one line naming DATABASE_URL and its host, not a stack', async () => {
  const port = await freePort();
  const { code, stderr } = await apiProcessExit({
    ...TEST_KEY_RINGS,
    DATABASE_URL: `postgres://mcp:not-for-logs@127.0.0.1:${port}/mcp`,
  });
  expect(code).toBe(1);
  expect(stderr.trim().split('\n')).toEqual([
    `API failed: Postgres at 127.0.0.1:${port}/mcp (DATABASE_URL) could not be reached: nothing listens there: is Postgres running, and is DATABASE_URL its address?`,
  ]);
  expect(stderr).not.toContain('not-for-logs');
}, 60_000);
