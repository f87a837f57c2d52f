import { roundInputBytes } from './round-input-size';

describe('roundInputBytes', () => {
  it('adds the incoming answer to the answers already taken for the other keys', () => {
    const taken = [
      { key: 'roots', response: { roots: [] } },
      { key: 'summary', response: { text: 'é' } },
    ];
    expect(roundInputBytes({ a: 1 }, taken, 'approval')).toBe(
      '{"a":1}'.length + '{"roots":[]}'.length + Buffer.byteLength('{"text":"é"}'),
    );
  });

  it('does not count a key twice when its answer is the one coming in', () => {
    expect(roundInputBytes({ roots: [] }, [{ key: 'roots', response: { roots: [] } }], 'roots')).toBe(
      '{"roots":[]}'.length,
    );
    expect(roundInputBytes(undefined, [], 'k')).toBe('null'.length);
  });
});
