/**
 * The service as a gateway alone (`HANDLERS=none`), in front of the upstreams a test declares in
 * an upstreams file of its own, and what a new 2026-07-28 client is listed by it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectModernClient } from '../support/modern-client';
import { startTestService, type TestService } from '../support/test-service';

/** A day: a listing no test waits for, so only an announcement explains a change seen sooner. */
export const NEVER_REFRESHED_MS = 86_400_000;

export async function startGatewayService(
  upstreams: unknown[],
  env: Record<string, string> = {},
): Promise<TestService> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upstreams-')), 'upstreams.json');
  writeFileSync(file, JSON.stringify({ upstreams }));
  return startTestService({ UPSTREAMS_FILE: file, HANDLERS: 'none', ...env });
}

/** The tool names a new 2026-07-28 client is listed (a client keeps the listing it read until told). */
export async function listedNames(service: TestService): Promise<string[]> {
  const client = await connectModernClient(service.url, {});
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}
