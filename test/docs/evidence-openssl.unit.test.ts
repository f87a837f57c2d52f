/**
 * The shell recipe docs/security.md gives for verifying an evidence entry with openssl and jq alone
 * (no library of ours) runs as written on an export of real signed entries: the signature verifies,
 * the hash it prints is the next entry's `prev`, and a changed payload does not verify.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportText } from '../../lib/evidence/evidence-export';
import { evidenceJwksOf } from '../../lib/evidence/signing-keys';
import { chainOf, testKey } from '../../lib/evidence/test-chain';

const ROOT = path.join(__dirname, '..', '..');
const JWKS_URL = 'https://mcp.example.com/.well-known/durable-mcp/evidence-jwks.json';
const tools = ['openssl', 'jq', 'xxd', 'base64'].every((tool) => spawnSync('which', [tool]).status === 0);

/** The recipe as the doc shows it, reading the JWKS from a file instead of fetching it. */
function recipe(): string {
  const doc = readFileSync(path.join(ROOT, 'docs', 'security.md'), 'utf8');
  const block = /## Evidence[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/security.md has no sh recipe under Evidence');
  expect(block).toContain(`curl -s ${JWKS_URL}`);
  return block.replace(`curl -s ${JWKS_URL}`, 'cat jwks.json');
}

(tools ? describe : describe.skip)('the openssl recipe of docs/security.md', () => {
  it('verifies an entry and prints the hash the next one links to; a changed entry fails', async () => {
    const key = testKey('ev1');
    const entries = await chainOf(key, [
      { taken: false, refusal: 'stale' },
      { taken: true, decided: true },
      { taken: false, refusal: 'closed' },
    ]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'evidence-openssl-'));
    const range = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' };
    writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify(evidenceJwksOf([testKey('other'), key])));
    writeFileSync(path.join(dir, 'export.jsonl'), exportText(range, entries, { exportedAt: new Date() }));
    const run = () => spawnSync('bash', ['-e', '-c', recipe()], { cwd: dir, encoding: 'utf8' });

    const good = run();
    expect(good.stdout).toContain('Signature Verified Successfully');
    expect(good.stdout).toContain(`\n${entries[2]!.prev}\n`);
    expect(good.stdout).toContain('"outcome": "taken"');

    // The second entry (line 3) with its payload swapped for the first one's, under its own signature.
    const [header, , signature] = entries[1]!.jws.split('.');
    const swapped = { ...entries[1]!, jws: `${header}.${entries[0]!.jws.split('.')[1]}.${signature}` };
    writeFileSync(
      path.join(dir, 'export.jsonl'),
      exportText(range, [entries[0]!, swapped, entries[2]!], { exportedAt: new Date() }),
    );
    const bad = run();
    expect(bad.status).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/Signature Verification Failure/);
  });
});
