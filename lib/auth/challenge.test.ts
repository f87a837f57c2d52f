// Pins the refusals and their WWW-Authenticate challenges (RFC 6750 §3, RFC 9728 §5.1).
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { missingTokenRefusal, queryTokenRefusal, quoted, tokenRefusal, unavailableRefusal } from './challenge';
import { REFUSAL, TokenRefused } from './token-refusal';

const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

describe('refusals', () => {
  it('challenge a request without a token with resource_metadata and no error code', () => {
    expect(missingTokenRefusal({ requiredScopes: [], resourceMetadataUrl: METADATA })).toEqual({
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${METADATA}"` },
      body: { error: 'unauthorized', error_description: 'A bearer access token is required' },
    });
    expect(
      missingTokenRefusal({ requiredScopes: ['mcp', 'files:read'], resourceMetadataUrl: METADATA }).headers[
        'www-authenticate'
      ],
    ).toBe(`Bearer resource_metadata="${METADATA}", scope="mcp files:read"`);
  });

  it('answer a refused token 401 invalid_token, with the metadata and the scopes', async () => {
    const refusal = await tokenRefusal(new TokenRefused(REFUSAL.expired, 'ERR_JWT_EXPIRED'), {
      requiredScopes: ['mcp'],
      resourceMetadataUrl: METADATA,
    });
    expect(refusal.status).toBe(401);
    expect(refusal.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="${REFUSAL.expired}", scope="mcp", resource_metadata="${METADATA}"`,
    );
    expect(refusal.body).toEqual({ error: 'invalid_token', error_description: REFUSAL.expired });
    expect(JSON.stringify(refusal)).not.toContain('ERR_JWT_EXPIRED');
  });

  it('answer missing scopes 403 insufficient_scope naming every scope needed', async () => {
    const refusal = await tokenRefusal(new OAuthError(OAuthErrorCode.InsufficientScope, 'Insufficient scope'), {
      requiredScopes: ['mcp', 'files:read'],
      resourceMetadataUrl: METADATA,
    });
    expect(refusal.status).toBe(403);
    expect(refusal.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp files:read", resource_metadata="${METADATA}"`,
    );
  });

  it('answer a token in the URL 400 invalid_request', async () => {
    const refusal = await queryTokenRefusal({ requiredScopes: [], resourceMetadataUrl: METADATA });
    expect(refusal.status).toBe(400);
    expect(refusal.body.error).toBe('invalid_request');
  });

  it('answer an unreachable authorization server 503 with Retry-After, never 401', () => {
    const refusal = unavailableRefusal(5);
    expect(refusal.status).toBe(503);
    expect(refusal.headers).toEqual({ 'retry-after': '5' });
    expect(refusal.body.error).toBe('temporarily_unavailable');
  });

  it('quote header values as HTTP quoted-strings', () => {
    expect(quoted('a "b" \\ c\n')).toBe('"a \\"b\\" \\\\ c "');
  });
});
