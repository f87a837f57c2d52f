import { isSecureEndpoint } from './endpoint-security';

describe('isSecureEndpoint', () => {
  it('takes https anywhere, and http on loopback only unless told otherwise', () => {
    expect(isSecureEndpoint(new URL('https://auth.example.com/jwks'), false)).toBe(true);
    expect(isSecureEndpoint(new URL('http://127.0.0.1:8080/jwks'), false)).toBe(true);
    expect(isSecureEndpoint(new URL('http://localhost/introspect'), false)).toBe(true);
    expect(isSecureEndpoint(new URL('http://[::1]:9000/jwks'), false)).toBe(true);
    expect(isSecureEndpoint(new URL('http://auth.example.com/jwks'), false)).toBe(false);
    expect(isSecureEndpoint(new URL('http://auth.example.com/jwks'), true)).toBe(true);
    expect(isSecureEndpoint(new URL('ftp://auth.example.com/jwks'), true)).toBe(false);
  });
});
