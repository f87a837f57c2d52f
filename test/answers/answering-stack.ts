/**
 * The service with the answer page on, as the tests of the page and of URL mode run it: real
 * bearer tokens (oauth-stack.ts) for /mcp and the answer API, and the page's sign-in at a real
 * OpenID provider (sign-in-harness.ts, whose login form any account name passes) registered with
 * the page's redirect URI; the API listens on a port chosen first, so ANSWER_PUBLIC_URL is known
 * before it starts.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { startAnswerIssuer, type AnswerIssuer } from './sign-in-harness';

export const PAGE_CLIENT = { clientId: 'answer-page', clientSecret: 'answer-page-secret-for-the-tests-only' };

export interface AnsweringStack {
  stack: OAuthStack;
  issuer: AnswerIssuer;
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
  const origin = `http://127.0.0.1:${port}`;
  const issuer = await startAnswerIssuer([{ ...PAGE_CLIENT, redirectUri: `${origin}/answers/callback` }], accounts);
  try {
    const stack = await startOAuthStack(
      {
        ANSWER_OIDC_ISSUER: issuer.issuer,
        ANSWER_OIDC_CLIENT_ID: PAGE_CLIENT.clientId,
        ANSWER_OIDC_CLIENT_SECRET: PAGE_CLIENT.clientSecret,
        ANSWER_PUBLIC_URL: origin,
        ...env,
      },
      { handlers, port },
    );
    return {
      stack,
      issuer,
      origin,
      async close() {
        await stack.close();
        await issuer.stop();
      },
    };
  } catch (error) {
    await issuer.stop();
    throw error;
  }
}
