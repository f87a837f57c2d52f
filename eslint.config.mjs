// Lint rules. The one that matters most: workflow code is replayed deterministically by Temporal,
// so workflows/ may not import Node built-ins, I/O libraries or the service's I/O modules.
// The layering rules below keep the API's two protocol eras apart (what both need lives in an
// era-neutral folder of services/api/src, or in lib/), keep the admin API out of both, and keep lib/ the bottom
// layer: it imports nothing of the services, activities, workflows or handlers built on it.
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '**/dist/**',
      'node_modules/**',
      '**/node_modules/**',
      'examples/**',
      '.packs/**',
      'coverage/**',
      '.data/**',
      '*.js',
      '*.mjs',
    ],
  },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules read the types through the project's tsconfig.json.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection. Await it; a deliberate fire-and-forget is
      // marked `void` with a comment saying why it cannot reject unhandled (or ends in .catch).
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['services/api/src/legacy/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+modern(/|$)|(^|/)services/api/src/modern(/|$)',
              message:
                'The legacy era does not import the modern era: move what both use to an era-neutral folder (exchange-legs/, catalog/, http/) or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/api/src/modern/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+legacy(/|$)|(^|/)services/api/src/legacy(/|$)',
              message:
                'The modern era does not import the legacy era: move what both use to an era-neutral folder (exchange-legs/, catalog/, http/) or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/api/src/{exchange-legs,catalog,http}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(legacy|modern)(/|$)|(^|/)services/api/src/(legacy|modern)(/|$)',
              message: 'exchange-legs/, catalog/ and http/ are era-neutral: they import neither era.',
            },
          ],
        },
      ],
    },
  },
  {
    // The admin API is an operator's view beside the MCP endpoint, not part of either era.
    files: ['services/api/src/admin/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(legacy|modern|routes)(/|$)|(^|/)services/api/src/(legacy|modern|routes)(/|$)',
              message:
                'services/api/src/admin/ reads through the admin store (lib/db) and acts through the exchange gateway: it imports neither era nor the MCP routes.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(services|activities|workflows|built-in-handlers|cli|harness|scripts)(/|$)',
              message:
                'lib/ is the bottom layer: it does not import services/, activities/, workflows/, built-in-handlers/, cli/, harness/ or scripts/. Move the shared definition into lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...NODE_BUILTINS.flatMap((name) => [
              { name, message: 'Workflow code must stay deterministic: no Node built-ins.' },
              { name: `node:${name}`, message: 'Workflow code must stay deterministic: no Node built-ins.' },
            ]),
            { name: 'pg', message: 'Workflows do no I/O: record through an activity.' },
            { name: 'express', message: 'Workflows do no I/O.' },
            { name: 'pino', message: 'Use the workflow logger (log from @temporalio/workflow).' },
            { name: '@temporalio/client', message: 'Workflows do no I/O.' },
            { name: '@temporalio/worker', message: 'Workflows do no I/O.' },
            { name: '@temporalio/activity', message: 'Activities run outside workflows.' },
          ],
          patterns: [
            {
              group: [
                '**/lib/db/**',
                '**/lib/db',
                '**/cli/**',
                '**/harness/**',
                '**/scripts/**',
                '**/lib/state/**',
                '**/lib/log',
                '**/lib/config',
                '**/lib/config/**',
                '**/services/**',
                '**/built-in-handlers/**',
              ],
              message: 'Workflows do no I/O: import types only (import type) or pure modules.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
