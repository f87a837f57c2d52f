import { createIvSource } from './random-ivs';

describe('createIvSource', () => {
  it('hands out IVs of the asked length, each once, across batches', () => {
    const next = createIvSource(12, 4);
    const ivs = Array.from({ length: 10 }, next);
    expect(ivs.every((iv) => iv.length === 12)).toBe(true);
    expect(new Set(ivs.map((iv) => iv.toString('hex'))).size).toBe(10);
  });

  it('never overwrites an IV it gave out when it draws the next batch', () => {
    const next = createIvSource(12, 2);
    const first = next();
    const copy = Buffer.from(first);
    for (let i = 0; i < 5; i++) next();
    expect(first.equals(copy)).toBe(true);
  });
});
