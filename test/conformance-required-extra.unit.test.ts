// Pins the list of not-scored conformance scenarios the runner requires: how the file and the
// requirement set are read, that an entry the set does not run unscored is reported stale, and
// that the shipped lists are current against the installed suite.
import {
  notScoredServerScenarios,
  parseRequiredExtra,
  readRequiredExtra,
  staleRequiredExtra,
} from '../conformance/required-extra';

describe('required-extra conformance scenarios', () => {
  it('reads the server list of a required-extra file, and refuses anything but names', () => {
    expect(parseRequiredExtra('server:\n  - a\n  - b\n')).toEqual(['a', 'b']);
    expect(parseRequiredExtra('server: []\n')).toEqual([]);
    expect(parseRequiredExtra('# nothing yet\n')).toEqual([]);
    for (const bad of ['server: a\n', 'server:\n  - scenario: a\n', 'server:\n  - ""\n']) {
      expect(() => parseRequiredExtra(bad)).toThrow('scenario names');
    }
  });

  it("reads a requirement set's not-scored server scenarios", () => {
    const set = [
      'server:\n  - scored',
      'not_scored:',
      '  - scenario: client-only\n    leg: client\n    reason: pending',
      '  - scenario: pending-one\n    leg: server\n    reason: pending',
      '  - scenario: unlegged',
    ].join('\n');
    expect(notScoredServerScenarios(set)).toEqual(['pending-one', 'unlegged']);
  });

  it('reports entries that are scored now, or not in the set, as stale', () => {
    expect(staleRequiredExtra(['pending-one', 'scored', 'misspelt'], ['pending-one'])).toEqual(['scored', 'misspelt']);
  });

  it('ships lists that are current against the installed suite', () => {
    const modern = readRequiredExtra('2026-07-28');
    expect(modern.scenarios).toContain('http-custom-header-server-validation');
    expect(modern.stale).toEqual([]);
    expect(readRequiredExtra('2025-11-25').stale).toEqual([]);
  });
});
