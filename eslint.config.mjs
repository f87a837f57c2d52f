// Lint rules. The one that matters most: workflow code is replayed deterministically by Temporal,
// so workflows/ may not import Node built-ins, I/O libraries or the service's I/O modules.
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers', 'tls', 'url', 'util', 'worker_threads', 'zlib'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '*.js', '*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
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
            { group: ['**/lib/db/**', '**/lib/db', '**/devtools/**', '**/lib/state/**', '**/lib/log', '**/lib/config', '**/services/**', '**/handlers/**'], message: 'Workflows do no I/O: import types only (import type) or pure modules.', allowTypeImports: true },
          ],
        },
      ],
    },
  },
);
