/**
 * The commands of `durable-mcp exchanges`: `list` (filters, pages, --all), `show` and `cancel`, each one
 * admin API call printed as tables (exchange-tables.ts) or as the API's JSON.
 */
import { detailLines, listLines, type ExchangeDetailView, type ExchangeRow } from './exchange-tables';
import { EXIT, refusal, request, type Io } from './admin-requests';

/** At most this many rows with --all, so a huge table cannot run away. */
const ALL_ROWS_CAP = 10_000;

const LIST_FILTERS = {
  status: 'status',
  method: 'method',
  target: 'target',
  era: 'era',
  session: 'session',
  principal: 'principal',
  'handler-version': 'handlerVersion',
  'older-than': 'olderThan',
  'newer-than': 'newerThan',
  limit: 'limit',
} as const;

export async function list(
  base: string,
  token: string,
  values: Partial<Record<string, string | boolean>>,
  io: Io,
): Promise<number> {
  const query = new URLSearchParams();
  for (const [flag, parameter] of Object.entries(LIST_FILTERS)) {
    const value = values[flag];
    if (typeof value === 'string') query.set(parameter, value);
  }
  let cursor = typeof values.cursor === 'string' ? values.cursor : undefined;
  const rows: ExchangeRow[] = [];
  const pages: unknown[] = [];
  for (;;) {
    const page = new URLSearchParams(query);
    if (cursor) page.set('cursor', cursor);
    const answer = await request(base, token, 'GET', `/admin/exchanges${page.size ? `?${page}` : ''}`, undefined);
    if (answer.status !== 200) throw refusal(answer, 'list');
    pages.push(answer.body);
    rows.push(...((answer.body.exchanges as ExchangeRow[]) ?? []));
    cursor = answer.body.nextCursor as string | undefined;
    if (!values.all || !cursor || rows.length >= ALL_ROWS_CAP) break;
  }
  if (values.json) {
    io.out(
      JSON.stringify(values.all ? { exchanges: rows, ...(cursor ? { nextCursor: cursor } : {}) } : pages[0], null, 2),
    );
    return EXIT.ok;
  }
  for (const line of listLines(rows)) io.out(line);
  if (cursor) {
    io.out('');
    io.out(
      values.all
        ? `Stopped at ${rows.length} rows; the rest: durable-mcp exchanges list --cursor ${cursor}`
        : `More: durable-mcp exchanges list --cursor ${cursor} (same filters), or --all`,
    );
  }
  return EXIT.ok;
}

export async function show(base: string, token: string, id: string, json: boolean, io: Io): Promise<number> {
  const answer = await request(base, token, 'GET', `/admin/exchanges/${encodeURIComponent(id)}`);
  if (answer.status !== 200) throw refusal(answer, 'show');
  if (json) io.out(JSON.stringify(answer.body, null, 2));
  else for (const line of detailLines(answer.body as unknown as ExchangeDetailView)) io.out(line);
  return EXIT.ok;
}

export async function cancel(
  base: string,
  token: string,
  id: string,
  reason: string | undefined,
  json: boolean,
  io: Io,
): Promise<number> {
  const answer = await request(
    base,
    token,
    'POST',
    `/admin/exchanges/${encodeURIComponent(id)}/cancel`,
    reason !== undefined ? { reason } : {},
  );
  if (answer.status !== 200 && answer.status !== 202) throw refusal(answer, 'cancel');
  if (json) {
    io.out(JSON.stringify(answer.body, null, 2));
    return EXIT.ok;
  }
  const exchange = answer.body.exchange as ExchangeRow;
  if (answer.status === 202)
    io.out(`Cancel of ${exchange.id} signalled; no worker has recorded the ending yet (it will when one runs).`);
  else if (exchange.status === 'cancelled') io.out(`Cancelled ${exchange.id} (${exchange.method} ${exchange.target}).`);
  else io.out(`${exchange.id} ended as ${exchange.status} before the cancel applied.`);
  return EXIT.ok;
}
