// Two projects: pure unit tests that sit beside their modules, and integration tests under test/
// that run against a real Temporal dev server and a real Postgres started once by globalSetup.
// jose ships only ES modules, which jest's module loader cannot require as they are: swc turns them
// into CommonJS like the project's own files (shared with jest.faults.config.js).
const { moduleNameMapper, transform, transformIgnorePatterns } = require('./test/support/jest-transform');

module.exports = {
  testTimeout: 120_000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      moduleNameMapper,
      testMatch: [
        '<rootDir>/{lib,workflows,activities,services,cli,harness,built-in-handlers,packages,scripts}/**/*.test.ts',
        '<rootDir>/test/**/*.unit.test.ts',
      ],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      moduleNameMapper,
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
