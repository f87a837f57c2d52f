/**
 * The official MCP conformance suite (0.2.0-alpha.12) against the service on its real engine,
 * serving the conformance handler set: the 2026-07-28 requirement set must pass, but for the
 * entries in conformance/expected-failures-2026-07-28.yml (each with its reason).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../conformance/run-conformance';
import { startTestService, type TestService } from './support/test-service';

describe('official conformance suite', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ HANDLER_SET: 'conformance' });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('passes the 2026-07-28 requirement set', async () => {
    const outputDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-2026-'));
    const run = await runConformance(service.url, '2026-07-28', outputDir);
    if (run.exitCode !== 0) process.stdout.write(`${run.output}\nper-check results: ${outputDir}\n`);
    expect(run.exitCode).toBe(0);
  }, 300_000);
});
