import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moduleArgument } from './module-argument';

describe('moduleArgument', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'module-argument-'));
  writeFileSync(path.join(dir, 'tools.ts'), 'export {};');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a file of the working directory by its absolute path, though it looks like a package name', () => {
    expect(moduleArgument('tools.ts', dir)).toBe(path.join(dir, 'tools.ts'));
    expect(moduleArgument('./tools.ts', dir)).toBe(path.join(dir, 'tools.ts'));
  });

  it('passes on what is no file: a package, a built-in set, a path to report missing', () => {
    expect(moduleArgument('@acme/refund-tools', dir)).toBe('@acme/refund-tools');
    expect(moduleArgument('demo', dir)).toBe('demo');
    expect(moduleArgument('./missing.ts', dir)).toBe('./missing.ts');
  });
});
