/**
 * Who may call /mcp, /sse and /messages: with AUTH_MODE=oauth, every request of both eras carries
 * a bearer access token, checked before its body is read by the SDK's `verifyBearerToken` with this
 * server's verifier (lib/auth/token-verifier.ts) and the required scopes; the token's principal
 * becomes the request's caller (caller.ts). Refusals are lib/auth/challenge.ts's: 401 and its
 * challenge for no token or a bad one, 403 for missing scopes, 503 while an authorization server
 * is unreachable. The token itself goes no further than this file: nothing downstream sees,
 * stores, logs or forwards it. With AUTH_MODE=off every request's caller is the anonymous principal.
 */
import type { Request, RequestHandler } from 'express';
import { OAuthError, verifyBearerToken } from '@modelcontextprotocol/server';
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

export function bearerGate(auth: AuthConfig, log: Logger): RequestHandler {
  if (auth.mode === 'off') {
    return (_req, res, next) => {
      setCaller(res, ANONYMOUS_PRINCIPAL);
      next();
    };
  }
  const verifiers = createTokenVerifiers(auth);
  const resources = protectedResources(auth);
  const gateOf = (resource: ProtectedResource) => ({
    verifier: verifiers.forResources(resource.resources),
    challenge: { requiredScopes: auth.requiredScopes, resourceMetadataUrl: resource.metadataUrl } as ChallengeOptions,
  });
  const gates = { mcp: gateOf(resources.mcp), sse: gateOf(resources.sse) };
  // Mounted on GUARDED_PATHS: the base URL says which route this is. Express matches paths without
  // regard to case, so `POST /MCP` is served by /mcp: it must be held to /mcp's audience too, not
  // fall through to the /sse gate's.
  // The answer API takes the tokens /mcp does (one resource, one audience).
  const gateFor = (req: Request) => (SSE_PATHS.includes(req.baseUrl.toLowerCase()) ? gates.sse : gates.mcp);

  async function refusalFor(req: Request, gate: (typeof gates)['mcp'], error: unknown): Promise<Refusal> {
    if (error instanceof AuthorizationServerUnavailable) {
      log.error({ issuer: error.issuer, err: error.cause ?? error }, `token not checked: ${error.message}`);
      return unavailableRefusal(OUTAGE_RETRY_AFTER_S);
    }
    if (!(error instanceof OAuthError)) throw error;
    log.info(
      { path: req.baseUrl, error: error.code, reason: error instanceof TokenRefused ? error.reason : error.message },
      'access token refused',
    );
    return tokenRefusal(error, gate.challenge);
  }

  return async (req, res, next) => {
    const gate = gateFor(req);
    let refusal: Refusal;
    if (req.query.access_token !== undefined) refusal = await queryTokenRefusal(gate.challenge);
    else if (req.get('authorization') === undefined) refusal = missingTokenRefusal(gate.challenge);
    else {
      try {
        const info = await verifyBearerToken(req.get('authorization'), {
          verifier: gate.verifier,
          requiredScopes: auth.requiredScopes,
          resourceMetadataUrl: gate.challenge.resourceMetadataUrl,
        });
        setCaller(res, principalFromAuthInfo(info), groupsFromAuthInfo(info));
        return next();
      } catch (error) {
        try {
          refusal = await refusalFor(req, gate, error);
        } catch (unexpected) {
          return next(unexpected);
        }
      }
    }
    res.status(refusal.status).set(refusal.headers).json(refusal.body);
  };
}
