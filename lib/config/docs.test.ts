import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../paths';
import { renderConfigurationTables, withGeneratedTables } from './docs';
import { CONFIG_VARIABLES } from './schema';

const DOC = path.join(projectRoot(), 'docs', 'configuration.md');

describe('docs/configuration.md', () => {
  it('holds the tables the declarations generate (run `npm run docs:config` after changing one)', () => {
    const written = readFileSync(DOC, 'utf8');
    expect(written).toBe(withGeneratedTables(written));
  });

  it('documents every variable the schema reads, once', () => {
    const tables = renderConfigurationTables();
    for (const { name } of CONFIG_VARIABLES) expect(tables.split(`| \`${name}\` |`).length - 1).toBe(1);
  });

  it('shows a required variable as required, and an optional one without a default as none', () => {
    const tables = renderConfigurationTables();
    expect(tables).toContain('| `DATABASE_URL` | (required) |');
    expect(tables).toContain('| `OAUTH_INTROSPECTION_CLIENT_SECRET` | (none) |');
    expect(tables).toContain('| `MAX_ROUNDS` | `8` |');
  });
});
