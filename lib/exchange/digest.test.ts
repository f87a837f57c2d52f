// Pins stable JSON digests: key order is irrelevant, values, array order and present members are not.
import { canonicalJson, digestJson } from './digest';

describe('digestJson', () => {
  it('gives the same digest whatever the order of object keys, at every depth', () => {
    const a = { name: 'greet', arguments: { greeting: 'Hi', count: 2, nested: { x: 1, y: [1, 2] } } };
    const b = { arguments: { nested: { y: [1, 2], x: 1 }, count: 2, greeting: 'Hi' }, name: 'greet' };
    expect(digestJson(a)).toBe(digestJson(b));
  });

  it('gives different digests for different values', () => {
    expect(digestJson({ greeting: 'Hi' })).not.toBe(digestJson({ greeting: 'Hello' }));
    expect(digestJson({ n: 1 })).not.toBe(digestJson({ n: '1' }));
    expect(digestJson({ a: { b: 1 } })).not.toBe(digestJson({ a: { b: 2 } }));
  });

  it('gives different digests for different keys holding the same value', () => {
    expect(digestJson({ a: 1 })).not.toBe(digestJson({ b: 1 }));
  });

  it('ignores members whose value is undefined', () => {
    expect(digestJson({ a: 1, b: undefined })).toBe(digestJson({ a: 1 }));
    expect(digestJson({ outer: { a: 1, b: undefined } })).toBe(digestJson({ outer: { a: 1 } }));
  });

  it('does not ignore members whose value is null', () => {
    expect(digestJson({ a: 1, b: null })).not.toBe(digestJson({ a: 1 }));
  });

  it('keeps array order significant', () => {
    expect(digestJson([1, 2, 3])).not.toBe(digestJson([3, 2, 1]));
    expect(digestJson({ list: ['a', 'b'] })).not.toBe(digestJson({ list: ['b', 'a'] }));
  });

  it('is a base64url SHA-256 (43 characters, no padding)', () => {
    expect(digestJson({ a: 1 })).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys and drops undefined members, producing valid JSON equal to the input', () => {
    const value = { b: [2, { d: 1, c: undefined }], a: 'x' };
    const canonical = canonicalJson(value);
    expect(canonical).toBe('{"a":"x","b":[2,{"d":1}]}');
    expect(JSON.parse(canonical)).toEqual(value);
  });

  it('renders undefined inside an array as null, as JSON.stringify does', () => {
    expect(canonicalJson([1, undefined])).toBe(JSON.stringify([1, undefined]));
  });
});
