import { canonicalJson } from '../exchange/digest';
import { canonicalize, digestOfJson, sha256Base64url } from './canonical-json';

describe('canonicalize (RFC 8785 JCS)', () => {
  it('writes the example of RFC 8785 §3.2.2 as the RFC does', () => {
    const input = {
      numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
      string: '\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/',
      literals: [null, true, false],
    };
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts members by UTF-16 code units (RFC 8785 §3.2.3), not by code points or locale', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const order = [...canonicalize(input).matchAll(/"([^"]+)":"([^"]+)"/g)].map((m) => m[2]);
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it('drops undefined members and refuses what JCS cannot write', () => {
    expect(canonicalize({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}');
    expect(() => canonicalize({ n: Number.NaN })).toThrow(/cannot represent the number NaN/);
    expect(() => canonicalize({ n: Infinity })).toThrow(/cannot represent/);
    expect(() => canonicalize({ n: 1n })).toThrow(/bigint/);
  });

  it('is the text the service already digests questions with', () => {
    const value = { method: 'tools/call', target: 'refund', arguments: { order: 'R-1', amount: 12.5, tags: ['a'] } };
    expect(canonicalize(value)).toBe(canonicalJson(value));
  });

  it('digests as SHA-256 of the JCS bytes, base64url', () => {
    expect(sha256Base64url('')).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
    expect(digestOfJson({ b: 2, a: 1 })).toBe(sha256Base64url('{"a":1,"b":2}'));
  });
});
