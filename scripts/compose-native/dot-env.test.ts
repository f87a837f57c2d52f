import { parseDotEnv } from './dot-env';

describe('parseDotEnv', () => {
  it('reads KEY=VALUE lines, skipping comments and blank lines', () => {
    expect(parseDotEnv('# a comment\nA=1\n\n  B = two words \nexport C=3\n#D=4\nnot a pair\n')).toEqual({
      A: '1',
      B: 'two words',
      C: '3',
    });
  });

  it('removes one pair of matching quotes, and keeps = in values', () => {
    expect(parseDotEnv(`A="x y"\nB='z'\nC="unbalanced'\nD=k1:abc=\n`)).toEqual({
      A: 'x y',
      B: 'z',
      C: `"unbalanced'`,
      D: 'k1:abc=',
    });
  });
});
