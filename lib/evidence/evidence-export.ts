/**
 * An export of the evidence log, as `durable-mcp evidence export` writes it and `durable-mcp
 * evidence verify` (chain-verification.ts) reads it: JSON lines, UTF-8. The first line describes
 * the export; every other line is one entry, in log order.
 *
 *   {"durableMcpEvidenceExport":1,"links":"log","scope":{"from":"…","to":"…"},"after":{"seq":41,"hash":"…"},"count":3,"exportedAt":"…","jwks":"/.well-known/durable-mcp/evidence-jwks.json"}
 *   {"seq":42,"exchangeSeq":1,"hash":"…","jws":"eyJhbGciOiJFZERTQSIs…"}
 *
 * `links` says which chain the entries form without a gap: `log` (a range of the whole log: each
 * entry's `prev` is the hash of the line before, and the first's is `after.hash`, the entry before
 * the range, so the range verifies on its own) or `exchange` (every entry of one exchange: each
 * `exchangePrev` is the hash of the line before, and the first is the exchange's first). `hash` and
 * `seq` are repeated outside the JWS for reading; the verifier recomputes and compares them.
 */
export const EXPORT_FORMAT_VERSION = 1;

export type ExportScope = { exchange: string } | { from: string; to: string };

export interface ExportHeader {
  durableMcpEvidenceExport: typeof EXPORT_FORMAT_VERSION;
  links: 'log' | 'exchange';
  scope: ExportScope;
  /** The entry before the first exported one (links `log`): its seq (0 before the log's first) and hash. */
  after?: { seq: number; hash: string | null };
  count: number;
  exportedAt: string;
  /** Where the service publishes its public keys (a path on its API). */
  jwks: string;
}

export interface ExportLine {
  seq: number;
  exchangeSeq: number;
  hash: string;
  jws: string;
}

export interface StoredEntry extends ExportLine {
  prev: string | null;
}

/** The path the API serves the evidence keys at. */
export const EVIDENCE_JWKS_PATH = '/.well-known/durable-mcp/evidence-jwks.json';

/** The header line of an export whose first entry is `first` (none: `after` says where the range starts). */
export function exportHeader(
  scope: ExportScope,
  first: StoredEntry | undefined,
  count: number,
  options: { exportedAt: Date; after?: { seq: number; hash: string | null } },
): string {
  const log = !('exchange' in scope);
  const header: ExportHeader = {
    durableMcpEvidenceExport: EXPORT_FORMAT_VERSION,
    links: log ? 'log' : 'exchange',
    scope,
    ...(log
      ? { after: first ? { seq: first.seq - 1, hash: first.prev } : (options.after ?? { seq: 0, hash: null }) }
      : {}),
    count,
    exportedAt: options.exportedAt.toISOString(),
    jwks: EVIDENCE_JWKS_PATH,
  };
  return `${JSON.stringify(header)}\n`;
}

/** One entry's line. */
export const exportLine = ({ seq, exchangeSeq, hash, jws }: StoredEntry): string =>
  `${JSON.stringify({ seq, exchangeSeq, hash, jws })}\n`;

/** An export's whole text: its header line and one line per entry. */
export const exportText = (
  scope: ExportScope,
  entries: ReadonlyArray<StoredEntry>,
  options: { exportedAt: Date; after?: { seq: number; hash: string | null } },
): string => exportHeader(scope, entries[0], entries.length, options) + entries.map(exportLine).join('');
