import { deliveryTo, repeatOf } from './answer-repeats';

describe('answer repeats', () => {
  it('takes the first answers to the expected round; earlier rounds and a second delivery repeat', () => {
    expect(deliveryTo(2, 2, false)).toBe('due');
    expect(deliveryTo(2, 2, true)).toBe('repeat');
    expect(deliveryTo(1, 2, false)).toBe('repeat');
    expect(deliveryTo(3, 2, false)).toBe('ahead');
  });

  it('calls a repeat the same unless both digests are known and differ', () => {
    expect(repeatOf('a', 'a')).toBe('same');
    expect(repeatOf('a', 'b')).toBe('different');
    expect(repeatOf(undefined, 'b')).toBe('same');
    expect(repeatOf('a', undefined)).toBe('same');
  });
});
