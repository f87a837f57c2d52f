/**
 * `npm run docs:clients`: writes docs/protocol.md's client compatibility table ("Clients, tested")
 * from test/clients/compatibility.ts, the cells the client tests assert (the prose around it stays
 * as written). test/clients/compatibility-table.unit.test.ts checks they agree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { withCompatibilityTable } from '../test/clients/compatibility-table';

const file = path.join(projectRoot(), 'docs', 'protocol.md');
writeFileSync(file, withCompatibilityTable(readFileSync(file, 'utf8')));
process.stdout.write(`wrote the client compatibility table of ${path.relative(process.cwd(), file)}\n`);
