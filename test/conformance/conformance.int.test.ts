/**
 * The official MCP conformance suite (0.2.0-alpha.12) against the service on its real engine,
 * serving the conformance handler set: the 2026-07-28 requirement set (modern clients) and the
 * 2025-11-25 set (legacy clients, served by the same handlers through the durable shim)
 * must pass, but for the entries in conformance/expected-failures-<set>.yml (each with a reason),
 * and so must the not-scored scenarios conformance/required-not-scored-<set>.yml requires (the
 * Tasks extension's, on 2026-07-28).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runConformance } from '../../conformance/run-conformance';
import { JOINED_IDENTICAL_CALLS, useTestService } from '../support/test-service';

describe('official conformance suite', () => {
  const service = useTestService({ HANDLER_SET: 'conformance', ...JOINED_IDENTICAL_CALLS });

  it.each(['2026-07-28', '2025-11-25'])(
    'passes the %s requirement set',
    async (requirements) => {
      const outputDir = mkdtempSync(path.join(os.tmpdir(), `conformance-${requirements}-`));
      const run = await runConformance(service.url, requirements, outputDir);
      if (run.exitCode !== 0) process.stdout.write(`${run.output}\nper-check results: ${outputDir}\n`);
      expect(run.exitCode).toBe(0);
    },
    300_000,
  );
});
