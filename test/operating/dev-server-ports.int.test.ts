/**
 * A local Temporal dev server whose port another process holds: a port the caller fixed ends the
 * start with the CLI's own line naming it, at once; a port the caller left to the stack is taken
 * again from a fresh start (here the metrics port, which the CLI otherwise picks itself), and after
 * the last attempt the same line is reported. Real Temporal CLI, real held sockets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TemporalDevServerExited } from '../../cli/dev/local-stack/dev-server-exit';
import { startTemporalDevServer } from '../../cli/dev/local-stack/temporal-dev-server';

const dir = mkdtempSync(path.join(tmpdir(), 'dev-server-ports-'));
let held: Server;
let heldPort: number;

beforeAll(async () => {
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => held.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const startsIn = (log: string) => readFileSync(log, 'utf8').split('address already in use').length - 1;

it("ends the start at once when a port the caller fixed is held, with the CLI's line naming it", async () => {
  const logFile = path.join(dir, 'fixed.log');
  const started = startTemporalDevServer({ uiPort: heldPort, logFile });
  await expect(started).rejects.toBeInstanceOf(TemporalDevServerExited);
  const error = (await started.catch((e: unknown) => e)) as TemporalDevServerExited;
  expect(error.portInUse).toBe(heldPort);
  expect(error.message).toContain(`can't set UI port ${heldPort}`);
  expect(error.message).toContain(logFile);
  expect(startsIn(logFile)).toBe(1);
});

it('starts again when the held port was not one the caller fixed, and reports it after the last attempt', async () => {
  const logFile = path.join(dir, 'picked.log');
  const error = (await startTemporalDevServer({ logFile, extraArgs: ['--metrics-port', String(heldPort)] }).catch(
    (e: unknown) => e,
  )) as TemporalDevServerExited;
  expect(error).toBeInstanceOf(TemporalDevServerExited);
  expect(error.portInUse).toBe(heldPort);
  expect(error.message).toContain(`can't set metrics port ${heldPort}`);
  expect(startsIn(logFile)).toBe(3);
});
