// What a development stack turns on for the answer page, and what its banner says of it.
import { answerPageFrom, apiOriginForBrowser, codecEndpointForBrowser, devSignInEnvironment } from './dev-environment';

describe('the development stack’s answer page', () => {
  it('is on with the development sign-in, under the origin a browser reaches the API at', () => {
    expect(devSignInEnvironment({})).toEqual({
      ANSWER_DEV_SIGN_IN: 'true',
      ANSWER_PUBLIC_URL: 'http://127.0.0.1:3000',
    });
    expect(devSignInEnvironment({ HOST: '0.0.0.0', PORT: '4000', AUTH_MODE: 'off' })).toEqual({
      ANSWER_DEV_SIGN_IN: 'true',
      ANSWER_PUBLIC_URL: 'http://127.0.0.1:4000',
    });
    expect(devSignInEnvironment({ ANSWER_PUBLIC_URL: 'http://localhost:3000' }).ANSWER_PUBLIC_URL).toBe(
      'http://localhost:3000',
    );
  });

  it.each([
    [{ AUTH_MODE: 'oauth' }],
    [{ ANSWER_OIDC_ISSUER: 'http://127.0.0.1:8080' }],
    [{ ANSWER_DEV_SIGN_IN: 'false' }],
    [{ ANSWER_DEV_SIGN_IN: 'true' }],
    [{ PORT: '0' }],
  ])('is left as the environment says with %j', (env) => {
    expect(devSignInEnvironment(env)).toEqual({});
  });

  it('is named in the banner with how one signs in, or why it is off', () => {
    expect(answerPageFrom({ ANSWER_DEV_SIGN_IN: 'true', ANSWER_PUBLIC_URL: 'http://127.0.0.1:3000' })).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/answers {3}\(development sign-in/,
    );
    expect(
      answerPageFrom({ ANSWER_OIDC_ISSUER: 'https://id.example', ANSWER_PUBLIC_URL: 'https://mcp.example/' }),
    ).toBe('https://mcp.example/answers   (sign-in at https://id.example)');
    expect(answerPageFrom({})).toMatch(/^\(off: /);
  });

  it('keeps the codec endpoint where it was', () => {
    expect(codecEndpointForBrowser({ HOST: '::1', PORT: '3001' })).toBe('http://[::1]:3001/codec');
    expect(apiOriginForBrowser({ PORT: '0' })).toBeUndefined();
  });
});
