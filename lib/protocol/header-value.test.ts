// Pins SEP-2243 value decoding: the sentinel's exact markers, strict Base64 and UTF-8, and what a
// plain value may hold (the spec's and the SEP's test-case tables).
import { decodeHeaderValue } from './header-value';

const sentinel = (base64: string) => `=?base64?${base64}?=`;

describe('decodeHeaderValue', () => {
  it('decodes the =?base64?...?= sentinel as UTF-8', () => {
    expect(decodeHeaderValue(sentinel('SGVsbG8='))).toEqual({ ok: true, value: 'Hello' });
    expect(decodeHeaderValue(sentinel('SGVsbG8sIOS4lueVjA=='))).toEqual({ ok: true, value: 'Hello, 世界' });
    expect(decodeHeaderValue(sentinel('IHBhZGRlZCA='))).toEqual({ ok: true, value: ' padded ' });
    expect(decodeHeaderValue(sentinel('PT9iYXNlNjQ/bGl0ZXJhbD89'))).toEqual({ ok: true, value: '=?base64?literal?=' });
    expect(decodeHeaderValue(sentinel(''))).toEqual({ ok: true, value: '' });
  });

  it('takes a value without both exact markers as a literal', () => {
    for (const literal of [
      'SGVsbG8=',
      '=?base64?SGVsbG8=',
      '=?BASE64?SGVsbG8=?=',
      'SGVsbG8=?=',
      '=?base64?=',
      'us west 1',
      '',
    ]) {
      expect(decodeHeaderValue(literal)).toEqual({ ok: true, value: literal });
    }
  });

  it('refuses Base64 with missing padding, characters outside the alphabet, or bytes that are not UTF-8', () => {
    for (const bad of ['SGVsbG8', 'SGVs!!!bG8=', 'SGVsbG8==', 'SGVs bG8=', '=SGVsbG8', 'SGVsbG8=\n']) {
      expect(decodeHeaderValue(sentinel(bad))).toEqual({
        ok: false,
        problem: 'is not valid Base64 inside =?base64?...?=',
      });
    }
    expect(decodeHeaderValue(sentinel(Buffer.from([0xff, 0xfe]).toString('base64')))).toEqual({
      ok: false,
      problem: 'does not decode to UTF-8',
    });
  });

  it('refuses a plain value with characters outside visible ASCII, space and tab', () => {
    for (const bad of ['rÃ©gion', 'a\u0000b', 'a\u007fb', 'line1\nline2']) {
      expect(decodeHeaderValue(bad)).toMatchObject({ ok: false });
    }
    expect(decodeHeaderValue('a\tb')).toEqual({ ok: true, value: 'a\tb' });
  });
});
