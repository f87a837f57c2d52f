/**
 * Who is asking the answer API (`/answers/api`): a resource of its own (ANSWER_API_RESOURCE_URL,
 * with its own protected resource metadata), so that software holding a token for /mcp cannot
 * answer a question put to a person. Its bearer token is verified as /mcp's are (issuer,
 * signature or introspection, expiry), for this resource or for /mcp's, and its holder is:
 *
 * - a **service** when the token is for the answer API and is a service's own (client
 *   credentials: token-claims.ts `serviceTokenOf`): it answers as itself, the questions addressed
 *   to it (`answerer.service`), its groups or its scopes;
 * - a **client** otherwise: a token issued for /mcp (an MCP client's, an LLM agent's), or a
 *   person's token for the answer API held by software acting for them. A client answers nothing
 *   here; its attempts are judged, refused (`client-token`) and recorded like any other, so an
 *   agent trying to approve its own call leaves evidence. People answer at the answer page.
 *
 * Tokens for /mcp are verified rather than refused at once so that the attempt is known by whose
 * token it was. With AUTH_MODE=off the caller is the anonymous client: nobody is a service there.
 */
import type { Request, RequestHandler, Response } from 'express';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { AuthConfig, OAuthConfig } from '../../../../lib/auth/auth-config';
import { tokenRefusal } from '../../../../lib/auth/challenge';
import { protectedResources } from '../../../../lib/auth/protected-resource';
import { groupsFromAuthInfo, principalFromAuthInfo } from '../../../../lib/auth/token-claims';
import { createTokenVerifiers } from '../../../../lib/auth/token-verifier';
import { ANONYMOUS_PRINCIPAL, personIdOf, type Principal } from '../../../../lib/exchange/principal';
import type { Logger } from '../../../../lib/log';
import type { AnswererIdentity, AnswererKind } from '../../../../lib/questions/question';
import { checkBearer, sendRefusal, type Gate } from '../auth/bearer-gate';
import { setCaller } from '../auth/caller';

const ANSWERER = Symbol('answer API answerer');

type WithAnswerer = Record<typeof ANSWERER, AnswererIdentity | undefined>;

/** The answerer a token names, of the kind the gate found it to be. */
export function answererOfPrincipal(principal: Principal, groups: string[], kind: AnswererKind): AnswererIdentity {
  return {
    id: personIdOf(kind === 'service' ? { ...principal, kind: 'service' } : principal),
    kind,
    ...(kind === 'service' ? { clientId: principal.clientId ?? principal.subject } : {}),
    ...(principal.issuer !== undefined ? { issuer: principal.issuer } : {}),
    subject: principal.subject,
    scopes: principal.scopes,
    groups,
    ...(principal.name !== undefined ? { name: principal.name } : {}),
    ...(principal.email !== undefined ? { email: principal.email } : {}),
  };
}

/** The answerer of this answer API request (the gate ran on every route of the router). */
export function apiAnswererOf(res: Response): AnswererIdentity {
  const answerer = (res.locals as WithAnswerer)[ANSWERER];
  if (!answerer) throw new Error('no answerer: the answer API gate did not run on this route');
  return answerer;
}

function setAnswerer(res: Response, principal: Principal, answerer: AnswererIdentity): void {
  setCaller(res, principal, answerer.groups);
  (res.locals as WithAnswerer)[ANSWERER] = answerer;
}

const withoutSlash = (uri: string) => uri.replace(/\/$/, '');

function oauthAnswerApiGate(auth: OAuthConfig, log: Logger): RequestHandler {
  const resources = protectedResources(auth);
  const mcpResources = [...new Set([...resources.mcp.resources, ...resources.sse.resources])];
  const gate: Gate = {
    // /mcp's first: a token for both is an MCP client's.
    verifier: createTokenVerifiers(auth).forResources([...mcpResources, auth.answerApi.resource]),
    challenge: { requiredScopes: auth.answerApi.requiredScopes, resourceMetadataUrl: resources.answers.metadataUrl },
  };
  return async (req: Request, res: Response, next) => {
    try {
      const checked = await checkBearer(req, gate, [], log);
      if ('refusal' in checked) return sendRefusal(res, checked.refusal);
      const { info } = checked;
      const principal = principalFromAuthInfo(info);
      const forMcp = info.resource !== undefined && mcpResources.includes(withoutSlash(info.resource.href));
      const kind: AnswererKind = !forMcp && principal.kind === 'service' ? 'service' : 'client';
      const missing = auth.answerApi.requiredScopes.filter((scope) => !principal.scopes.includes(scope));
      if (kind === 'service' && missing.length > 0)
        return sendRefusal(
          res,
          await tokenRefusal(new OAuthError(OAuthErrorCode.InsufficientScope, 'Insufficient scope'), gate.challenge),
        );
      setAnswerer(res, principal, answererOfPrincipal(principal, groupsFromAuthInfo(info), kind));
      next();
    } catch (unexpected) {
      next(unexpected);
    }
  };
}

export function answerApiGate(auth: AuthConfig, log: Logger): RequestHandler {
  if (auth.mode === 'oauth') return oauthAnswerApiGate(auth, log);
  const anonymous = answererOfPrincipal(ANONYMOUS_PRINCIPAL, [], 'client');
  return (_req, res, next) => {
    setAnswerer(res, ANONYMOUS_PRINCIPAL, anonymous);
    next();
  };
}
