/**
 * The answer page's development sign-in (ANSWER_DEV_SIGN_IN=true): a form at `/answers/sign-in`
 * where whoever opens it names the person they are, so questions addressed to someone else can be
 * answered on a laptop with no OpenID provider. Anyone can be anyone there, so it is refused
 * unless nobody is authenticated anyway (AUTH_MODE=off), and it never stands beside a real
 * sign-in (ANSWER_OIDC_*), which a deployment that set both would silently lose. Pure:
 * lib/config/config.ts calls it before the OpenID Connect sign-in's check; a problem is an
 * `Error` whose message names the variable (config.ts makes it a ConfigError).
 */
import { publicOriginOf } from './answer-sign-in-config';

export interface AnswerDevSignInConfig {
  /** The API's origin as the developer's browser reaches it (ANSWER_PUBLIC_URL): what forms must come from. */
  publicOrigin: string;
  sessionTtlMs: number;
}

/** The variables this module reads, as lib/config parsed them. */
export interface AnswerDevSignInEnv {
  ANSWER_DEV_SIGN_IN: boolean;
  AUTH_MODE: 'off' | 'oauth';
  ANSWER_OIDC_ISSUER?: string;
  ANSWER_OIDC_CLIENT_ID?: string;
  ANSWER_OIDC_CLIENT_SECRET?: string;
  ANSWER_PUBLIC_URL?: string;
  ANSWER_SESSION_TTL_MS: number;
}

const OIDC_VARIABLES = ['ANSWER_OIDC_ISSUER', 'ANSWER_OIDC_CLIENT_ID', 'ANSWER_OIDC_CLIENT_SECRET'] as const;

/** The development sign-in's configuration, or undefined when it is off; throws naming the variable. */
export function parseAnswerDevSignInConfig(env: AnswerDevSignInEnv): AnswerDevSignInConfig | undefined {
  if (!env.ANSWER_DEV_SIGN_IN) return undefined;
  if (env.AUTH_MODE !== 'off')
    throw new Error(
      `ANSWER_DEV_SIGN_IN is malformed: only with AUTH_MODE=off (AUTH_MODE is ${env.AUTH_MODE}); anyone can sign in as anyone there, so it is for local development only`,
    );
  const oidc = OIDC_VARIABLES.find((name) => env[name] !== undefined);
  if (oidc !== undefined)
    throw new Error(
      `ANSWER_DEV_SIGN_IN is malformed: not with ${oidc} (the answer page signs in one way: unset ANSWER_DEV_SIGN_IN or the ANSWER_OIDC_* variables)`,
    );
  if (env.ANSWER_PUBLIC_URL === undefined)
    throw new Error(
      "ANSWER_PUBLIC_URL is missing: required with ANSWER_DEV_SIGN_IN (the API's origin as your browser reaches it, such as http://127.0.0.1:3000; the sign-in form must be posted from it)",
    );
  return { publicOrigin: publicOriginOf(env.ANSWER_PUBLIC_URL), sessionTtlMs: env.ANSWER_SESSION_TTL_MS };
}
