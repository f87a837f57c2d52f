import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DATA_FOLDER_IGNORE, prepareDataFolder } from './dev-data-folder';

describe("durable-mcp dev's data folder", () => {
  it('ignores everything in it for git, so its secrets never reach a repository', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'dev-data-')), '.durable-mcp');
    prepareDataFolder(dataDir);
    expect(readFileSync(path.join(dataDir, '.gitignore'), 'utf8')).toBe(DATA_FOLDER_IGNORE);
    expect(DATA_FOLDER_IGNORE.split('\n')).toContain('*');
  });

  it('leaves a .gitignore the user wrote there alone', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'dev-data-'));
    writeFileSync(path.join(dataDir, '.gitignore'), 'mine\n');
    prepareDataFolder(dataDir);
    expect(readFileSync(path.join(dataDir, '.gitignore'), 'utf8')).toBe('mine\n');
  });
});
