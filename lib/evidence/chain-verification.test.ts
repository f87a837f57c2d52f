import { compactVerify } from 'jose';
import { canonicalize } from './canonical-json';
import { verifyEvidenceExport } from './chain-verification';
import { entryHash, signEvidence } from './entry-signing';
import { exportText } from './evidence-export';
import { evidenceJwksOf } from './signing-keys';
import { chainOf, QUESTION, testKey } from './test-chain';

const at = new Date('2026-01-02T00:00:00Z');
const range = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' };
const verdicts = [
  { taken: false as const, refusal: 'not-addressed' as const },
  { taken: true as const, decided: true },
  { taken: false as const, refusal: 'closed' as const },
];

/** The text with the character at `index` of line `line` (1-based) changed. */
function changeByte(text: string, line: number, index: number): string {
  const lines = text.split('\n');
  const target = lines[line - 1]!;
  const replacement = target[index] === 'A' ? 'B' : 'A';
  lines[line - 1] = target.slice(0, index) + replacement + target.slice(index + 1);
  return lines.join('\n');
}

describe('verifying an export', () => {
  const key = testKey('now');
  const jwks = evidenceJwksOf([key]);

  it('passes a whole log, a range after entries it does not hold, and one exchange', async () => {
    const entries = await chainOf(key, verdicts);
    const whole = await verifyEvidenceExport(exportText(range, entries, { exportedAt: at }), jwks);
    expect(whole).toMatchObject({ ok: true, count: 3 });

    const later = await verifyEvidenceExport(exportText(range, entries.slice(1), { exportedAt: at }), jwks);
    expect(later).toMatchObject({ ok: true, count: 2, header: { after: { seq: 1, hash: entries[0]!.hash } } });

    const other = '00000000-0000-4000-8000-000000000002';
    const mixed = await chainOf(key, [...verdicts, ...verdicts], {
      exchanges: [QUESTION.exchangeId, other, QUESTION.exchangeId, other, other, QUESTION.exchangeId],
    });
    const mine = mixed.filter((_, i) => [0, 2, 5].includes(i));
    const exchange = await verifyEvidenceExport(
      exportText({ exchange: QUESTION.exchangeId }, mine, { exportedAt: at }),
      jwks,
    );
    expect(exchange).toMatchObject({ ok: true, count: 3 });
    if (exchange.ok) expect(exchange.entries.map((e) => e.seq)).toEqual([1, 3, 6]);
  });

  it('names the entry whose signed bytes changed, whose hash was rewritten, or that was signed by a key not published', async () => {
    const entries = await chainOf(key, verdicts);
    const text = exportText(range, entries, { exportedAt: at });
    // One character inside the second entry's JWS payload (line 3).
    const jwsAt = text.split('\n')[2]!.indexOf('"jws":"') + 7 + 120;
    expect(await verifyEvidenceExport(changeByte(text, 3, jwsAt), jwks)).toMatchObject({
      ok: false,
      line: 3,
      seq: 2,
      problem: expect.stringMatching(/signature does not verify/),
    });
    const hashAt = text.split('\n')[3]!.indexOf('"hash":"') + 10;
    expect(await verifyEvidenceExport(changeByte(text, 4, hashAt), jwks)).toMatchObject({
      ok: false,
      line: 4,
      seq: 3,
      problem: 'its hash is not the SHA-256 of its jws',
    });
    const stranger = await chainOf(testKey('now'), verdicts);
    expect(await verifyEvidenceExport(exportText(range, stranger, { exportedAt: at }), jwks)).toMatchObject({
      ok: false,
      line: 2,
      seq: 1,
      problem: expect.stringMatching(/signature does not verify/),
    });
  });

  it('names the entry after one that is missing, and a range whose start does not link', async () => {
    const entries = await chainOf(key, verdicts);
    const gap = await verifyEvidenceExport(exportText(range, [entries[0]!, entries[2]!], { exportedAt: at }), jwks);
    expect(gap).toMatchObject({ ok: false, line: 3, seq: 3, problem: 'seq 3 does not follow 1: an entry is missing' });

    const lines = exportText(range, entries.slice(1), { exportedAt: at }).split('\n');
    const header = JSON.parse(lines[0]!) as { after: { hash: string } };
    header.after.hash = entries[1]!.hash;
    lines[0] = JSON.stringify(header);
    expect(await verifyEvidenceExport(lines.join('\n'), jwks)).toMatchObject({
      ok: false,
      line: 2,
      seq: 2,
      problem: "its prev is not the hash of entry 1 (the export's after.hash)",
    });
  });

  it("names an exchange's entry that is missing or another exchange's, and a file cut short", async () => {
    const other = '00000000-0000-4000-8000-000000000002';
    const entries = await chainOf(key, verdicts);
    const scope = { exchange: QUESTION.exchangeId };
    expect(
      await verifyEvidenceExport(exportText(scope, [entries[0]!, entries[2]!], { exportedAt: at }), jwks),
    ).toMatchObject({
      ok: false,
      line: 3,
      seq: 3,
      problem: 'exchangeSeq 3 does not follow 1: an entry of the exchange is missing',
    });
    expect(
      await verifyEvidenceExport(exportText({ exchange: other }, entries, { exportedAt: at }), jwks),
    ).toMatchObject({
      ok: false,
      line: 2,
      problem: `it is an entry of exchange ${QUESTION.exchangeId}, not ${other}`,
    });
    const text = exportText(scope, entries, { exportedAt: at });
    const cut = text.split('\n').slice(0, 3).join('\n');
    expect(await verifyEvidenceExport(cut, jwks)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/the end is missing/),
    });
  });

  it('refuses a file that is not an export', async () => {
    expect(await verifyEvidenceExport('', jwks)).toMatchObject({ ok: false, line: 1 });
    expect(await verifyEvidenceExport('{"hello":1}\n', jwks)).toMatchObject({ ok: false, line: 1 });
  });
});

describe('verifying an export with gateway decisions', () => {
  const key = testKey('now');
  const jwks = evidenceJwksOf([key]);

  it("passes both kinds in one chain, and an exchange's export that holds both", async () => {
    const entries = await chainOf(key, [
      { gateway: { outcome: 'approve', approve: { anyOf: [{ group: 'approvers' }] } } },
      { taken: true, decided: true },
      { gateway: { outcome: 'deny', reason: 'Closed.' } },
    ]);
    const whole = await verifyEvidenceExport(exportText(range, entries, { exportedAt: at }), jwks);
    expect(whole).toMatchObject({ ok: true, count: 3 });
    if (!whole.ok) return;
    expect(whole.entries.map((entry) => (entry as { kind?: string }).kind)).toEqual([
      'gateway-decision',
      undefined,
      'gateway-decision',
    ]);
    const exchange = await verifyEvidenceExport(
      exportText({ exchange: QUESTION.exchangeId }, entries, { exportedAt: at }),
      jwks,
    );
    expect(exchange).toMatchObject({ ok: true, count: 3 });
  });

  it('names a changed byte of a gateway decision', async () => {
    const entries = await chainOf(key, [{ taken: true, decided: true }, { gateway: { outcome: 'forward' } }]);
    const text = changeByte(exportText(range, entries, { exportedAt: at }), 3, 200);
    expect(await verifyEvidenceExport(text, jwks)).toMatchObject({ ok: false, line: 3, seq: 2 });
  });

  it('refuses an entry of a kind it does not know, though signed and linked', async () => {
    const [entry] = await chainOf(key, [{ gateway: { outcome: 'forward' } }]);
    const { payload } = await compactVerify(entry!.jws, key.publicJwk as never);
    const other = { ...(JSON.parse(new TextDecoder().decode(payload)) as object), kind: 'something-else' };
    const jws = await signEvidence(JSON.parse(canonicalize(other)) as never, key);
    const forged = { ...entry!, jws, hash: entryHash(jws) };
    expect(await verifyEvidenceExport(exportText(range, [forged], { exportedAt: at }), jwks)).toMatchObject({
      ok: false,
      line: 2,
      problem: expect.stringContaining('kind "something-else"'),
    });
  });
});
