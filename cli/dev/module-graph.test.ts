import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importedSpecifiers, moduleGraph } from './module-graph';

let dir: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};
const graph = (file: string) => moduleGraph(path.join(dir, file)).map((f) => path.relative(dir, f));

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'module-graph-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('walks the local imports transitively, and nothing else in the folder', () => {
  write(
    'tools.ts',
    "import { refund } from './tools/refund.js';\nimport { z } from 'zod';\nexport * from './shared';\n",
  );
  write('tools/refund.ts', "import rates from '../data/rates.json';\nimport type { Order } from './order';\n");
  write('tools/order.ts', "export const load = () => import('./lazy');\n");
  write('tools/lazy.cjs', "module.exports = require('../lib');\n");
  write('lib/index.js', "import './tools.ts-not-a-file';\n");
  write('shared/index.ts', "// import './commented-out';\nexport const a = 1;\n");
  write('data/rates.json', '{}');
  write('commented-out.ts', '');
  write('client.mjs', "import './tools.ts';\n");
  write('tools.test.ts', "import './tools';\n");
  write('package-lock.json', '{}');
  write('node_modules/zod/index.js', '');
  expect(graph('tools.ts').sort()).toEqual(
    [
      'tools.ts',
      'tools/refund.ts',
      'tools/order.ts',
      'tools/lazy.cjs',
      'lib/index.js',
      'shared/index.ts',
      'data/rates.json',
    ].sort(),
  );
});

it('follows a cycle once, and skips what does not resolve', () => {
  write('a.ts', "import './b';\nimport './missing';\n");
  write('b.ts', "import './a';\n");
  expect(graph('a.ts')).toEqual(['a.ts', 'b.ts']);
});

it("does not follow a relative import into node_modules, and starts a folder at its package's main", () => {
  write('pkg/package.json', JSON.stringify({ main: 'dist/main.js' }));
  write('pkg/dist/main.js', "require('../node_modules/dep/x.js');\nrequire('./more');\n");
  write('pkg/dist/more.js', '');
  write('pkg/node_modules/dep/x.js', '');
  expect(graph('pkg')).toEqual(['pkg/dist/main.js', 'pkg/dist/more.js']);
});

it('is empty for a module that is not there', () => {
  expect(graph('nothing.ts')).toEqual([]);
});

it('reads every kind of import', () => {
  const source = [
    "import a from './a';",
    "import {\n  b,\n  c as d,\n} from './b';",
    "import type { E } from './e';",
    "export { f } from './f';",
    "import './g';",
    "const h = await import('./h');",
    "const i = require('./i');",
    "const url = 'http://example.com/x'; // import './j'",
  ].join('\n');
  expect(importedSpecifiers(source)).toEqual(['./a', './b', './e', './f', './g', './h', './i']);
});
