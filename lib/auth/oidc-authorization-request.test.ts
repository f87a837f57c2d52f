// The authorization request: PKCE S256 as RFC 7636 computes it, and every parameter the flow needs.
import { authorizationUrl, newPendingSignIn, pkceChallenge } from './oidc-authorization-request';

describe('authorization request', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes fresh secrets each time, 43 characters of base64url', () => {
    const a = newPendingSignIn();
    const b = newPendingSignIn();
    for (const value of [a.state, a.nonce, a.verifier]) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.state, a.nonce, a.verifier, b.state, b.nonce, b.verifier]).size).toBe(6);
  });

  it('asks for a step-up with max_age and acr_values, never in place of the flow’s own parameters', () => {
    const pending = newPendingSignIn();
    const url = new URL(
      authorizationUrl(
        {
          authorizationEndpoint: 'https://id.example.com/auth',
          clientId: 'answers',
          redirectUri: 'https://mcp.example.com/answers/callback',
          scopes: ['openid'],
          stepUp: { max_age: '0', acr_values: 'urn:mfa', state: 'forced' },
        },
        pending,
      ),
    );
    expect(url.searchParams.get('max_age')).toBe('0');
    expect(url.searchParams.get('acr_values')).toBe('urn:mfa');
    expect(url.searchParams.get('state')).toBe(pending.state);
  });

  it('sends the code flow’s parameters, keeping the endpoint’s own query', () => {
    const pending = newPendingSignIn();
    const url = new URL(
      authorizationUrl(
        {
          authorizationEndpoint: 'https://id.example.com/auth?tenant=t',
          clientId: 'answers',
          redirectUri: 'https://mcp.example.com/answers/callback',
          scopes: ['openid', 'profile'],
        },
        pending,
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 't',
      response_type: 'code',
      client_id: 'answers',
      redirect_uri: 'https://mcp.example.com/answers/callback',
      scope: 'openid profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: pkceChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
  });
});
