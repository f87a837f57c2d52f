// Two projects: pure unit tests that sit beside their modules, and integration tests under test/
// that run against a real Temporal dev server and a real Postgres started once by globalSetup.
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] };

module.exports = {
  testTimeout: 120_000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: [
        '<rootDir>/{lib,workflows,activities,services,handlers}/**/*.test.ts',
        '<rootDir>/test/**/*.unit.test.ts',
      ],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
