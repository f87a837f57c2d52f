/**
 * Answering questions: how an answerer signs in at the answer page (OpenID Connect, authorization
 * code flow with PKCE, through the deployment's issuer; or, in local development only, a form
 * where anyone names themselves). Declared here one by one; checked together (an issuer without a
 * client id, say) by lib/auth/answer-sign-in-config.ts and lib/auth/answer-dev-sign-in-config.ts.
 */
import { z } from 'zod';
import { documented } from './documented';
import { boolean, integer, keyRing, unsetWhenEmpty } from './value-kinds';

const URL_PATTERN = /^https?:\/\/[^\s]+$/;

/** Answering questions */
export const ANSWER_VARIABLES = {
  ANSWER_OIDC_ISSUER: documented(
    unsetWhenEmpty(z.string().regex(URL_PATTERN, 'must be an http:// or https:// URL')),
    'the OpenID Connect issuer answerers sign in at, exactly as its discovery document (`<issuer>/.well-known/openid-configuration`) spells `issuer`; https, or http on loopback. Each request to it gives up after `OAUTH_REQUEST_TIMEOUT_MS`. Unset (and without `ANSWER_DEV_SIGN_IN`), the answer page is off: `/answers/sign-in` is not served',
    '(none: the answer page is off)',
  ),
  ANSWER_OIDC_CLIENT_ID: documented(
    unsetWhenEmpty(z.string().min(1).max(256)),
    "this service's client at the issuer, registered with the redirect URI `<ANSWER_PUBLIC_URL>/answers/callback` and the authorization code grant (PKCE S256 is always sent); the ID token's audience",
    '(required with `ANSWER_OIDC_ISSUER`)',
  ),
  ANSWER_OIDC_CLIENT_SECRET: documented(
    unsetWhenEmpty(z.string().min(1).max(1024)),
    "the client's secret, sent to the token endpoint as HTTP Basic (`client_secret_basic`); unset, the client is public and sends only its `client_id` (and the PKCE verifier)",
    '(none: a public client)',
  ),
  ANSWER_PUBLIC_URL: documented(
    unsetWhenEmpty(z.string().regex(URL_PATTERN, 'must be an http:// or https:// URL')),
    "the API's public origin as answerers' browsers reach it (`https://mcp.example.com`; https, or http on loopback): the redirect URI is `<origin>/answers/callback`, and a form posted to the answer page must come from this origin",
    '(required with `ANSWER_OIDC_ISSUER` or `ANSWER_DEV_SIGN_IN`)',
  ),
  ANSWER_DEV_SIGN_IN: documented(
    boolean('false'),
    '`true` turns the answer page on with a development sign-in instead of OpenID Connect: `/answers/sign-in` is a form where whoever opens it types any subject, name and groups and is signed in as that person (the subject `anonymous` is the `AUTH_MODE=off` caller itself), and every page says so. For local development only (`npm run dev` and `durable-mcp dev` set it): refused at start unless `AUTH_MODE=off`, and with `ANSWER_OIDC_ISSUER`; needs `ANSWER_PUBLIC_URL`',
  ),
  ANSWER_OIDC_SCOPES: documented(
    z.string().default('openid,profile,email'),
    "the scopes the sign-in asks for, comma-separated (`openid,profile,email,groups`; spaces are accepted too, but an unquoted `openid profile email` in an env file a shell sources is cut at the first space); must include `openid`. Add the issuer's groups scope when it has one (`groups` at Dex and Keycloak) or people sign in without groups",
  ),
  ANSWER_GROUPS_CLAIM: documented(
    z
      .string()
      .regex(/^[\x21-\x7e]{1,128}$/, 'must be a claim name (printable ASCII, no spaces)')
      .default('groups'),
    "the claim whose values are an answerer's groups, a string or a list of strings: what a question addressed to `{ group }` admits. Read from the page sign-in's ID token (or, when it lacks it, the issuer's userinfo answer) and from the access tokens of the answer API's callers",
  ),
  ANSWER_IDENTITY_CLAIM: documented(
    unsetWhenEmpty(z.string().regex(/^[\x21-\x7e]{1,128}$/, 'must be a claim name (printable ASCII, no spaces)')),
    "the claim that names the same person in /mcp's access tokens and in the page's sign-in, when issuer and subject do not (another issuer for the page, or pairwise subjects as Entra ID gives): `oid`, or `email` (counted only with `email_verified: true`, compared without case). Unset, a person is their issuer and subject, and `ANSWER_OIDC_ISSUER` must be one of `OAUTH_ISSUERS`, exactly (with `AUTH_MODE=oauth`). A caller whose token lacks the claim cannot be told from anyone at the page: a question that excludes the caller, or is addressed to it, is then refused to everyone (`identity-unmatched`); a sign-in without it is refused",
    '(none: issuer and subject)',
  ),
  ANSWER_SESSION_TTL_MS: documented(
    integer(60_000, 86_400_000).default(3_600_000),
    'how long an answerer stays signed in at the answer page (an hour by default; at most a day). With OpenID Connect, what the session holds (the groups above all) is read from the issuer again every `ANSWER_SESSION_REFRESH_MS` within it',
  ),
  ANSWER_SESSION_REFRESH_MS: documented(
    integer(60_000, 86_400_000).default(900_000),
    "with OpenID Connect, how old the identity and groups a session holds may be (15 minutes by default; the session's own life, `ANSWER_SESSION_TTL_MS`, when that is shorter): past it the session acts for nobody until the person has been through the issuer again, which the page does by itself on the next page they open (without a prompt while their session at the issuer holds) and which reads their groups anew; a form posted with such a session is refused with a link to sign in. So a person taken out of a group stops answering for it within this time. The development sign-in has no issuer to ask and does not refresh",
  ),
  ANSWER_SESSION_KEYS: documented(
    unsetWhenEmpty(keyRing()),
    "the answer page's own key ring, which seals its cookies (the session, a sign-in under way, the development sign-in's form): comma-separated `kid:base64key` pairs of 32-byte keys, the first seals and every one opens (rotate by putting a new key first; dropping a key ends the sessions it sealed). Only the API holds it: never give it to the worker, which runs handler code, and use no key of `REQUEST_STATE_KEYS` or `PAYLOAD_CODEC_KEYS` here (refused at start). Required whenever the answer page is on (`ANSWER_OIDC_ISSUER` or `ANSWER_DEV_SIGN_IN`); `npm run dev`, `durable-mcp dev` and `npm run prod:local` make one in their data folder. A key is `k1:` followed by the output of `openssl rand -base64 32`",
    '(required with the answer page on)',
  ),
  ANSWER_SESSION_EPOCH: documented(
    unsetWhenEmpty(
      z
        .string()
        .max(64)
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    ),
    'change it (any text, the same on every API replica) to end every answer page session and sign-in under way issued before, without changing `ANSWER_SESSION_KEYS`: a cookie is sealed with the epoch it was issued under and opens under that one alone',
    '(none)',
  ),
};
