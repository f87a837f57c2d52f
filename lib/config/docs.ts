/**
 * docs/configuration.md's tables, generated from the declarations: one table per group of
 * schema.ts, each variable with its default and its doc. `npm run docs:config` writes them between
 * the markers; docs.test.ts fails when the file and the declarations part.
 */
import type { z } from 'zod';
import { docOf } from './variables/documented';
import { CONFIG_GROUPS, defaultOf } from './schema';

export const GENERATED_START =
  '<!-- generated from lib/config by `npm run docs:config`: change a declaration there, not this table -->';
export const GENERATED_END = '<!-- end of the generated tables -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function defaultCell(schema: z.ZodType, shownDefault?: string): string {
  if (shownDefault !== undefined) return shownDefault;
  const found = defaultOf(schema);
  if (found.required) return '(required)';
  return found.value === '' ? '(none)' : `\`${found.value}\``;
}

/** The tables, Markdown, from the first group's heading to the last table's last row. */
export function renderConfigurationTables(): string {
  return CONFIG_GROUPS.map((group) => {
    const rows = Object.entries(group.variables).map(([name, schema]) => {
      const doc = docOf(schema);
      if (!doc) throw new Error(`${name} has no doc: declare it with documented(...)`);
      return `| \`${name}\` | ${cell(defaultCell(schema, doc.shownDefault))} | ${cell(doc.description)} |`;
    });
    const patterns = ('patterns' in group ? group.patterns : []).map(
      (p) => `| \`${p.name}\` | ${cell(p.shownDefault)} | ${cell(p.description)} |`,
    );
    return [
      `## ${group.title}`,
      '',
      '| Variable | Default | What it sets |',
      '|---|---|---|',
      ...rows,
      ...patterns,
    ].join('\n');
  }).join('\n\n');
}

/** `markdown` with the text between the markers replaced by the tables (the markers must be there). */
export function withGeneratedTables(markdown: string): string {
  const start = markdown.indexOf(GENERATED_START);
  const end = markdown.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error('docs/configuration.md lacks the generated-tables markers');
  return `${markdown.slice(0, start + GENERATED_START.length)}\n\n${renderConfigurationTables()}\n\n${markdown.slice(end)}`;
}
