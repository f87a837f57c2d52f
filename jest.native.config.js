// The production topology: docker-compose.yml run as OS processes (scripts/compose-native), with
// the Temporal server built from its Go module. Each file starts its own topology; files run one at
// a time (a 2-core machine has room for one). Needs `npm run compose:native -- build` first (CI
// does it: the first build takes about 20 minutes) and Debian's Postgres.
const { moduleNameMapper, transform, transformIgnorePatterns } = require('./test/support/jest-transform');

module.exports = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  moduleNameMapper,
  testMatch: ['<rootDir>/test/compose-native/**/*.native.test.ts'],
  testTimeout: 300_000,
  verbose: true,
  reporters: ['default'],
};
