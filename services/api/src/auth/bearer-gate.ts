/**
 * Who may call /mcp, /sse and /messages: with AUTH_MODE=oauth, every request of both eras carries
 * a bearer access token, checked before its body is read by the SDK's `verifyBearerToken` with this
 * server's verifier (lib/auth/token-verifier.ts) and the required scopes; the token's principal
 * becomes the request's caller (caller.ts). Refusals are lib/auth/challenge.ts's: 401 and its
 * challenge for no token or a bad one, 403 for missing scopes, 503 while an authorization server
 * is unreachable. The token itself goes no further than this file: nothing downstream sees,
 * stores, logs or forwards it. With AUTH_MODE=off every request's caller is the anonymous principal.
 */
import type { Request, RequestHandler, Response } from 'express';
import { OAuthError, verifyBearerToken, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { AuthConfig } from '../../../../lib/auth/auth-config';
import { AuthorizationServerUnavailable } from '../../../../lib/auth/auth-errors';
import {
  missingTokenRefusal,
  queryTokenRefusal,
  tokenRefusal,
  unavailableRefusal,
  type ChallengeOptions,
  type Refusal,
} from '../../../../lib/auth/challenge';
import { protectedResources, type ProtectedResource } from '../../../../lib/auth/protected-resource';
import { groupsFromAuthInfo, principalFromAuthInfo } from '../../../../lib/auth/token-claims';
import { TokenRefused } from '../../../../lib/auth/token-refusal';
import { createTokenVerifiers } from '../../../../lib/auth/token-verifier';
import { ANONYMOUS_PRINCIPAL } from '../../../../lib/exchange/principal';
import type { Logger } from '../../../../lib/log';
import { setCaller } from './caller';

/** What a client is told to wait before trying again while an authorization server is down. */
export const OUTAGE_RETRY_AFTER_S = 5;

/** The routes the gate guards. */
export const GUARDED_PATHS = ['/mcp', '/sse', '/messages'];
const SSE_PATHS = ['/sse', '/messages'];

/** One route's token check: what it verifies tokens with, and what its refusals say. */
export interface Gate {
  verifier: OAuthTokenVerifier;
  challenge: ChallengeOptions;
}

/**
 * A request's bearer token checked by `gate`: its `AuthInfo`, or the refusal to send (401 without
 * a token or with a bad one, 403 without `requiredScopes`, 400 for a token in the URL, 503 while
 * an authorization server is unreachable). Errors that are no refusal are thrown.
 */
export async function checkBearer(
  req: Request,
  gate: Gate,
  requiredScopes: string[],
  log: Logger,
): Promise<{ info: AuthInfo } | { refusal: Refusal }> {
  if (req.query.access_token !== undefined) return { refusal: await queryTokenRefusal(gate.challenge) };
  if (req.get('authorization') === undefined) return { refusal: missingTokenRefusal(gate.challenge) };
  try {
    const info = await verifyBearerToken(req.get('authorization'), {
      verifier: gate.verifier,
      requiredScopes,
      resourceMetadataUrl: gate.challenge.resourceMetadataUrl,
    });
    return { info };
  } catch (error) {
    if (error instanceof AuthorizationServerUnavailable) {
      log.error({ issuer: error.issuer, err: error.cause ?? error }, `token not checked: ${error.message}`);
      return { refusal: unavailableRefusal(OUTAGE_RETRY_AFTER_S) };
    }
    if (!(error instanceof OAuthError)) throw error;
    log.info(
      { path: req.baseUrl, error: error.code, reason: error instanceof TokenRefused ? error.reason : error.message },
      'access token refused',
    );
    return { refusal: await tokenRefusal(error, gate.challenge) };
  }
}

/** Sends a refusal as the OAuth error it is. */
export const sendRefusal = (res: Response, refusal: Refusal): void => {
  res.status(refusal.status).set(refusal.headers).json(refusal.body);
};

export function bearerGate(auth: AuthConfig, log: Logger): RequestHandler {
  if (auth.mode === 'off') {
    return (_req, res, next) => {
      setCaller(res, ANONYMOUS_PRINCIPAL);
      next();
    };
  }
  const verifiers = createTokenVerifiers(auth);
  const resources = protectedResources(auth);
  const gateOf = (resource: ProtectedResource): Gate => ({
    verifier: verifiers.forResources(resource.resources),
    challenge: { requiredScopes: auth.requiredScopes, resourceMetadataUrl: resource.metadataUrl },
  });
  const gates = { mcp: gateOf(resources.mcp), sse: gateOf(resources.sse) };
  // Mounted on GUARDED_PATHS: the base URL says which route this is. Express matches paths without
  // regard to case, so `POST /MCP` is served by /mcp: it must be held to /mcp's audience too, not
  // fall through to the /sse gate's.
  const gateFor = (req: Request) => (SSE_PATHS.includes(req.baseUrl.toLowerCase()) ? gates.sse : gates.mcp);

  return async (req, res, next) => {
    try {
      const checked = await checkBearer(req, gateFor(req), auth.requiredScopes, log);
      if ('refusal' in checked) return sendRefusal(res, checked.refusal);
      setCaller(res, principalFromAuthInfo(checked.info), groupsFromAuthInfo(checked.info));
      next();
    } catch (unexpected) {
      next(unexpected);
    }
  };
}
