/**
 * `GET /admin/evidence?exchange=<id>` or `GET /admin/evidence?from=<ISO time>&to=<ISO time>`: an
 * export of the evidence log (lib/evidence/evidence-export.ts) as JSON lines
 * (`application/x-ndjson`), streamed a page at a time: every entry of one exchange, or the unbroken
 * run of entries logged in `[from, to)`, whose header names the entry before it so the range verifies
 * on its own. `durable-mcp evidence export` writes it to a file; `durable-mcp evidence verify` checks it.
 */
import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { EvidenceReader } from '../../../../lib/db/evidence-log-pg';
import { exportHeader, exportLine, type ExportScope } from '../../../../lib/evidence/evidence-export';
import { InvalidParameter } from './admin-errors';
import { UUID_ANY_CASE as UUID } from '../../../../lib/exchange/uuid';

function timeOf(query: Record<string, unknown>, name: 'from' | 'to'): Date {
  const value = query[name];
  const at = typeof value === 'string' ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime()))
    throw new InvalidParameter(name, `${name} must be a time in ISO 8601 (2026-01-31T00:00:00Z)`);
  return at;
}

function scopeOf(query: Record<string, unknown>): ExportScope {
  const known = ['exchange', 'from', 'to'];
  const unknown = Object.keys(query).find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new InvalidParameter(unknown, `unknown parameter ${unknown} (known: exchange, or from and to)`);
  if (query.exchange !== undefined) {
    if (query.from !== undefined || query.to !== undefined)
      throw new InvalidParameter('exchange', 'exchange or from and to, not both');
    if (typeof query.exchange !== 'string' || !UUID.test(query.exchange))
      throw new InvalidParameter('exchange', 'exchange must be an exchange id (a UUID)');
    return { exchange: query.exchange.toLowerCase() };
  }
  const from = timeOf(query, 'from');
  const to = timeOf(query, 'to');
  if (to <= from) throw new InvalidParameter('to', 'to must be after from');
  return { from: from.toISOString(), to: to.toISOString() };
}

export function evidenceExportRoute(reader: EvidenceReader) {
  return async (req: Request, res: Response) => {
    const scope = scopeOf(req.query as Record<string, unknown>);
    const found =
      'exchange' in scope
        ? await reader.exchange(scope.exchange)
        : await reader.range(new Date(scope.from), new Date(scope.to));
    const exportedAt = new Date();
    const first = await found.pages.next();
    const entries = first.done ? [] : first.value;
    const name = 'exchange' in scope ? scope.exchange : `${scope.from}_${scope.to}`.replace(/:/g, '');
    res
      .status(200)
      .type('application/x-ndjson')
      .set('content-disposition', `attachment; filename="evidence-${name}.jsonl"`);
    const write = async (text: string) => {
      if (!res.write(text)) await once(res, 'drain');
    };
    try {
      await write(exportHeader(scope, entries[0], found.count, { exportedAt }));
      for (const entry of entries) await write(exportLine(entry));
      for await (const page of found.pages) for (const entry of page) await write(exportLine(entry));
      res.end();
    } catch (error) {
      // The status is sent: a reader sees the export cut short (its header's count says so).
      res.destroy(error as Error);
    }
  };
}
