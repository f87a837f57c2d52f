/**
 * `npm run docs:config`: writes docs/configuration.md's tables from the declarations in lib/config
 * (the prose around them stays as written). lib/config/docs.test.ts checks they agree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { withGeneratedTables } from '../lib/config/docs';
import { projectRoot } from '../lib/paths';

const file = path.join(projectRoot(), 'docs', 'configuration.md');
writeFileSync(file, withGeneratedTables(readFileSync(file, 'utf8')));
process.stdout.write(`wrote the configuration tables of ${path.relative(process.cwd(), file)}\n`);
