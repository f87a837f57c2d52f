// The fault suite: the service as real OS processes (Temporal, Postgres, a worker, two APIs) that
// scenarios SIGKILL, SIGTERM and restart. Each file starts its own stack; files run one at a time
// because a 2-core machine has no room for two stacks. Verbose, so each scenario prints its name.
const { moduleNameMapper, transform, transformIgnorePatterns } = require('./test/support/jest-transform');

module.exports = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  moduleNameMapper,
  testMatch: ['<rootDir>/test/faults/**/*.fault.test.ts'],
  testTimeout: 180_000,
  verbose: true,
  reporters: ['default'],
};
