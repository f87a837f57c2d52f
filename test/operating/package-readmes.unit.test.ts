// Each published package's README is what the registry shows on its page, where the repository's
// files are not: it links to nothing relative, and names the packages beside it by their names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

const PACKAGES = path.join(projectRoot(), 'packages');
const packages = readdirSync(PACKAGES).filter((name) => !name.startsWith('.'));

describe.each(packages)('packages/%s', (folder) => {
  const readme = readFileSync(path.join(PACKAGES, folder, 'README.md'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(PACKAGES, folder, 'package.json'), 'utf8')) as {
    name: string;
    files: string[];
  };

  it('has a README that links only to addresses, and opens with the package name', () => {
    const relative = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((t) => !/^(https?:|#)/.test(t));
    expect(relative).toEqual([]);
    expect(readme.split('\n', 1)[0]).toBe(`# ${manifest.name}`);
  });

  it('publishes its README and CHANGELOG', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md']));
    expect(readFileSync(path.join(PACKAGES, folder, 'CHANGELOG.md'), 'utf8')).toContain('## 0.1.0');
  });
});

describe("the service package's README (the repository's too)", () => {
  const root = projectRoot();
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const { files } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] };
  const links = [...readme.matchAll(/\[[^\]]*\]\(([^)#]+)(#[^)]*)?\)/g)]
    .map((m) => ({ target: m[1]!, at: m.index }))
    .filter(({ target }) => !/^https?:/.test(target));

  it('publishes a CHANGELOG', () => {
    expect(files).toContain('CHANGELOG.md');
    expect(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')).toContain('## 0.1.0');
  });

  it('links to guides the package publishes, or says a link is to the repository', () => {
    for (const { target, at } of links) {
      const published = files.some((entry) => target === entry || target.startsWith(`${entry}/`));
      const before = readme.slice(Math.max(0, at - 60), at);
      expect({ target, published: published || /the repository's $/.test(before) }).toEqual({
        target,
        published: true,
      });
    }
  });
});
