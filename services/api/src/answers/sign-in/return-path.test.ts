// The sign-in's `return`: only an answer-page path of this origin, in the form a browser resolves it.
import { DEFAULT_RETURN_PATH, safeReturnPath } from './return-path';

const ORIGIN = 'https://mcp.example.com';

describe('safeReturnPath', () => {
  it('keeps an answer-page path and its query; none is the answer page', () => {
    expect(safeReturnPath('/answers', ORIGIN)).toBe('/answers');
    expect(safeReturnPath('/answers/q/abc?tab=1', ORIGIN)).toBe('/answers/q/abc?tab=1');
    expect(safeReturnPath('/answers/q/abc#frag', ORIGIN)).toBe('/answers/q/abc');
    expect(safeReturnPath(undefined, ORIGIN)).toBe(DEFAULT_RETURN_PATH);
  });

  it.each([
    'https://evil.example/answers',
    'https://mcp.example.com/answers',
    '//evil.example/answers',
    '/\\evil.example/answers',
    '/answers\\..\\admin',
    '/answers/../admin',
    '/answers/%2e%2e/admin',
    '/answersx',
    '/admin',
    'answers',
    'javascript:alert(1)',
    '/answers/\nq',
    '/answers/sign-in?return=/answers',
    '/answers/callback',
    '',
    `/answers/${'a'.repeat(2048)}`,
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw, ORIGIN)).toBeUndefined();
  });

  it('refuses what is not one string (a repeated or nested query parameter)', () => {
    expect(safeReturnPath(['/answers', '/answers'], ORIGIN)).toBeUndefined();
    expect(safeReturnPath({ a: '/answers' }, ORIGIN)).toBeUndefined();
  });
});
