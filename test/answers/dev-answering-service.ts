/**
 * The service as `durable-mcp dev` runs it for answering: no authorization (every caller is the
 * anonymous one), the answer page's development sign-in, and ANSWER_PUBLIC_URL on a port chosen
 * first, so the page's links are known before it starts.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startTestService, type TestService } from '../support/test-service';

export async function startDevAnsweringService(
  handlers: HandlerSet,
  env: Record<string, string> = {},
): Promise<{ service: TestService; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const service = await startTestService(
    { AUTH_MODE: 'off', ANSWER_DEV_SIGN_IN: 'true', ANSWER_PUBLIC_URL: origin, PORT: String(port), ...env },
    { handlers },
  );
  return { service, origin };
}
