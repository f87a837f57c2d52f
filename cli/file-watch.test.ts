import path from 'node:path';
import { countsAsChange } from './file-watch';

const root = path.resolve('/project');
const at = (file: string) => path.join(root, file);
const moduleFiles = new Set([at('tools.ts'), at('tools/refund.ts')]);

it.each([
  ['tools.ts', true],
  ['tools/refund.ts', true],
  ['prompts/welcome.md', true],
  ['prompts/node_modules/x.js', false],
  ['client.mjs', false],
  ['tools.test.ts', false],
  ['package-lock.json', false],
  ['tools/other.ts', false],
  ['.durable-mcp/temporal.db', false],
])('a change to %s counts: %s', (file, counts) => {
  expect(countsAsChange(at(file), moduleFiles, [at('prompts'), at('.durable-mcp')], [at('.durable-mcp')])).toBe(counts);
});
