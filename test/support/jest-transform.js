// How jest finds and turns source into what it runs: the project's TypeScript through swc, and the ES-module
// packages among the dependencies (jose; exit-hook and @modelcontextprotocol/ext-apps, which Mastra's
// CommonJS build requires) into CommonJS the same way, since jest requires modules and Node only
// requires ES modules natively from 22.12 on, and jest's own loader not at all.
const ESM_PACKAGES = ['jose', 'exit-hook', '@modelcontextprotocol/ext-apps'];

const swc = (module) => ['@swc/jest', { jsc: { target: 'es2022' }, ...(module ? { module } : {}) }];

module.exports = {
  // The published packages are workspaces: tests run their source, as tsconfig.json's `paths` have tsc and tsx do.
  moduleNameMapper: {
    '^@durable-mcp/handlers$': '<rootDir>/packages/handlers/src/index.ts',
    '^@durable-mcp/handlers/(.*)$': '<rootDir>/packages/handlers/src/$1.ts',
    '^@durable-mcp/dev$': '<rootDir>/packages/dev/src/index.ts',
    '^@durable-mcp/testing$': '<rootDir>/packages/testing/src/index.ts',
    '^@durable-mcp/testing/(.*)$': '<rootDir>/packages/testing/src/$1.ts',
    '^durable-mcp/harness$': '<rootDir>/harness/index.ts',
    // The service's own receiver export, as examples/approval-bot imports it (tsconfig.json's `paths` too).
    '^durable-mcp/webhooks$': '<rootDir>/lib/webhooks/index.ts',
  },
  transform: {
    '^.+\\.ts$': swc(),
    [`^.+/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: swc({ type: 'commonjs' }),
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
};
