/**
 * Verifies an export (evidence-export.ts) offline, with the service's published keys (a JWKS)
 * only: every entry's signature, that its payload is its own canonical form, its hash, and its
 * links to the line before (and the first one's to the export's start). Stops at the first entry
 * that fails and names it: its line in the file and its seq, with what is wrong.
 *
 * Both kinds of entry share the chain: an answer's (evidence-entry.ts, no `kind`) and a gateway
 * decision's (gateway-decision-entry.ts, `"kind": "gateway-decision"`). An entry of a kind this
 * verifier does not know fails, rather than passing unread.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { canonicalize } from './canonical-json';
import { EVIDENCE_TYPE, EVIDENCE_VERSION } from './evidence-entry';
import { EXPORT_FORMAT_VERSION, type ExportHeader, type ExportLine } from './evidence-export';
import { entryHash, EVIDENCE_JWS_TYPE, type SignedPayload } from './entry-signing';
import { GATEWAY_DECISION_KIND } from './gateway-decision-entry';

export type Verification =
  | { ok: true; count: number; header: ExportHeader; entries: SignedPayload[] }
  /** `line` is 1-based in the file; `seq` the failing entry's, when it could be read. */
  | { ok: false; line: number; seq?: number; problem: string };

class EntryProblem extends Error {}

const fail = (problem: string): never => {
  throw new EntryProblem(problem);
};

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail(`${what} is not JSON`);
  }
}

function headerOf(text: string | undefined): ExportHeader {
  if (text === undefined) return fail('the file is empty');
  const header = parseJson(text, 'the header line') as Partial<ExportHeader> | null;
  if (header?.durableMcpEvidenceExport !== EXPORT_FORMAT_VERSION)
    return fail(`the header is not a durable-mcp evidence export of version ${EXPORT_FORMAT_VERSION}`);
  if (header.links !== 'log' && header.links !== 'exchange') return fail('the header names no chain (links)');
  if (header.links === 'log' && (typeof header.after?.seq !== 'number' || header.after.hash === undefined))
    return fail('a range export must say the entry before its first (after.seq, after.hash)');
  if (header.links === 'exchange' && typeof (header.scope as { exchange?: unknown })?.exchange !== 'string')
    return fail('an exchange export must name its exchange (scope.exchange)');
  return header as ExportHeader;
}

async function payloadOf(line: ExportLine, keys: ReturnType<typeof createLocalJWKSet>): Promise<SignedPayload> {
  if (typeof line.jws !== 'string') return fail('the line has no jws');
  let verified;
  try {
    verified = await compactVerify(line.jws, keys, { algorithms: ['EdDSA', 'Ed25519', 'ES256'] });
  } catch (error) {
    return fail(`its signature does not verify (${(error as Error).message})`);
  }
  if (verified.protectedHeader.typ !== EVIDENCE_JWS_TYPE) return fail(`its JWS typ is not ${EVIDENCE_JWS_TYPE}`);
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(verified.payload);
  } catch {
    fail('its payload is not UTF-8');
  }
  const payload = parseJson(text, 'its payload') as SignedPayload;
  if (canonicalize(payload) !== text) return fail('its payload is not in its canonical (JCS) form');
  if (payload.typ !== EVIDENCE_TYPE || payload.v !== EVIDENCE_VERSION)
    return fail(`its payload is not a ${EVIDENCE_TYPE} entry of version ${EVIDENCE_VERSION}`);
  const { kind } = payload as { kind?: unknown };
  if (kind !== undefined && kind !== GATEWAY_DECISION_KIND)
    return fail(`its payload is an entry of kind ${JSON.stringify(kind)}, which this verifier does not know`);
  if (line.seq !== payload.seq) return fail(`the line says seq ${line.seq}, its signed payload ${payload.seq}`);
  if (line.exchangeSeq !== payload.exchangeSeq)
    return fail(`the line says exchangeSeq ${line.exchangeSeq}, its signed payload ${payload.exchangeSeq}`);
  if (line.hash !== entryHash(line.jws)) return fail('its hash is not the SHA-256 of its jws');
  return payload;
}

/** Whether `payload` follows `before` (the previous line's entry, or the export's start) in the export's chain. */
function checkLink(
  header: ExportHeader,
  payload: SignedPayload,
  before: { payload: SignedPayload; hash: string } | undefined,
): void {
  if (header.links === 'log') {
    const prevSeq = before ? before.payload.seq : header.after!.seq;
    const prevHash = before ? before.hash : header.after!.hash;
    if (payload.seq !== prevSeq + 1) fail(`seq ${payload.seq} does not follow ${prevSeq}: an entry is missing`);
    if (payload.prev !== prevHash)
      fail(`its prev is not the hash of entry ${prevSeq}${before ? '' : " (the export's after.hash)"}`);
    return;
  }
  const exchange = (header.scope as { exchange: string }).exchange;
  if (payload.exchange !== exchange) fail(`it is an entry of exchange ${payload.exchange}, not ${exchange}`);
  const prevSeq = before ? before.payload.exchangeSeq : 0;
  if (payload.exchangeSeq !== prevSeq + 1)
    fail(`exchangeSeq ${payload.exchangeSeq} does not follow ${prevSeq}: an entry of the exchange is missing`);
  if (payload.exchangePrev !== (before ? before.hash : null))
    fail(before ? `its exchangePrev is not the hash of entry ${before.payload.seq}` : 'its exchangePrev is not null');
  if (before && payload.seq <= before.payload.seq) fail(`seq ${payload.seq} is not after ${before.payload.seq}`);
}

/** Verifies the text of an export against a JWKS, naming the first entry (or the header) that fails. */
export async function verifyEvidenceExport(text: string, jwks: JSONWebKeySet): Promise<Verification> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let header: ExportHeader;
  try {
    header = headerOf(lines[0]);
  } catch (error) {
    if (error instanceof EntryProblem) return { ok: false, line: 1, problem: error.message };
    throw error;
  }
  const keys = createLocalJWKSet(jwks);
  const entries: SignedPayload[] = [];
  let before: { payload: SignedPayload; hash: string } | undefined;
  for (let index = 1; index < lines.length; index++) {
    let seq: number | undefined;
    try {
      const line = parseJson(lines[index]!, 'the line') as ExportLine;
      seq = typeof line?.seq === 'number' ? line.seq : undefined;
      const payload = await payloadOf(line, keys);
      checkLink(header, payload, before);
      entries.push(payload);
      before = { payload, hash: line.hash };
    } catch (error) {
      if (!(error instanceof EntryProblem)) throw error;
      return { ok: false, line: index + 1, ...(seq !== undefined ? { seq } : {}), problem: error.message };
    }
  }
  if (entries.length !== header.count)
    return {
      ok: false,
      line: lines.length + 1,
      problem: `the header says ${header.count} entries, the file holds ${entries.length}: the end is missing`,
    };
  return { ok: true, count: entries.length, header, entries };
}
