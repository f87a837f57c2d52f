/**
 * The import rules `npm test` holds the tree to (`npm run lint:imports`). Every rule says why it
 * is there; the layout they keep is docs/architecture.md's.
 */
const SOURCES_ONLY = '(^|/)(node_modules|dist)/|\\.test\\.ts$|^test/|^examples/';

module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'Files that import each other can only be read together: move what both need into a third file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      scope: 'folder',
      severity: 'error',
      comment: 'Folders that import each other cannot be read, tested or moved apart: move what both need below both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'services-apart',
      severity: 'error',
      comment:
        'The API and the worker are two services: what both need lives in lib/, and cli/start puts them together.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'harness-not-api',
      severity: 'error',
      comment:
        'The test harness drives exchanges the way the API does, with the same lib/ parts: it runs a worker, never the API.',
      from: { path: '^harness/' },
      to: { path: '^services/api/' },
    },
    {
      name: 'lib-at-the-bottom',
      severity: 'error',
      comment: 'lib/ is what everything else is built on: it imports nothing built on it.',
      from: { path: '^lib/' },
      to: { path: '^(services|activities|workflows|cli|harness|built-in-handlers|scripts|bench)/' },
    },
    {
      name: 'exchange-rules-are-pure',
      severity: 'error',
      comment:
        'The rules of an exchange run alike in the API, the workflow sandbox, the activities and the harness: no Temporal, Postgres, express or I/O of their own.',
      from: { path: '^lib/exchange-rules/' },
      to: {
        path: '(^|/)node_modules/(@temporalio|pg|express|pino)/|^lib/(db|temporal|config|log|tracing|metrics)(/|\\.ts$)',
      },
    },
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment:
        'A published package is installed on its own: it reaches the repository only through the packages it depends on, by name.',
      from: { path: '^packages/([^/]+)/' },
      to: {
        path: '^(lib|services|cli|harness|workflows|activities|built-in-handlers|scripts|bench|test|packages)/',
        pathNot: '^packages/$1/',
        dependencyTypesNot: ['aliased-tsconfig-paths', 'aliased-tsconfig'],
      },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: SOURCES_ONLY },
  },
};
