/**
 * The service with the answer page on, as the tests of the page, of URL mode and of who may answer
 * run it: one real OpenID provider (oauth-stack.ts) issues /mcp's tokens, the answer API's service
 * tokens, and the page's sign-ins (authorization code with PKCE; its login form takes any account
 * name), so a person is one identity everywhere (config.ts refuses anything else). The API
 * listens on a port chosen first, so ANSWER_PUBLIC_URL and the page's redirect URI are known
 * before it starts.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';

export { PAGE_CLIENT } from '../support/oauth-stack';

export interface AnsweringStack {
  stack: OAuthStack;
  /** The issuer of tokens and sign-ins alike. */
  issuer: string;
  /** ANSWER_PUBLIC_URL: the API's own origin. */
  origin: string;
  close(): Promise<void>;
}

/** `accounts`: the issuer's accounts by login, with their claims (name, email, groups). */
export async function startAnsweringStack(
  handlers: HandlerSet,
  env: Record<string, string> = {},
  accounts: Record<string, Record<string, unknown>> = {},
): Promise<AnsweringStack> {
  const port = await freePort();
  const stack = await startOAuthStack(env, { handlers, port, answerPage: { accounts } });
  return {
    stack,
    issuer: stack.as.issuer,
    origin: `http://127.0.0.1:${port}`,
    close: () => stack.close(),
  };
}
