import { createServer, type Server } from 'node:net';
import { devPorts, heldPortLine, invalidPort, isHeld, portsLine } from './dev-ports';

it('names every port a dev stack opens with the variable that moves it', () => {
  expect(devPorts({}).map((port) => [port.variable, port.port])).toEqual([
    ['PORT', 3000],
    ['TEMPORAL_DEV_PORT', 7233],
    ['TEMPORAL_DEV_UI_PORT', 8233],
    ['WORKER_METRICS_PORT', 9464],
    ['POSTGRES_DEV_PORT', 0],
  ]);
});

it('leaves out what it does not start, and a metrics port turned off', () => {
  const env = {
    TEMPORAL_ADDRESS: 'temporal:7233',
    DATABASE_URL: 'postgres://x/y',
    WORKER_METRICS_PORT: '0',
    PORT: '4000',
  };
  expect(devPorts(env).map((port) => [port.variable, port.port])).toEqual([['PORT', 4000]]);
});

it('says a value that is not a port', () => {
  const [api] = devPorts({ PORT: 'http' });
  expect(invalidPort(api!)).toBe('PORT is not a port (0-65535): NaN');
  expect(invalidPort(devPorts({})[0]!)).toBeUndefined();
});

it('says in one line which port is held and how to move it', () => {
  const metrics = devPorts({}).find((port) => port.variable === 'WORKER_METRICS_PORT')!;
  expect(heldPortLine(metrics)).toBe(
    "port 9464 (the worker's metrics) is in use by another process: set WORKER_METRICS_PORT to a free port, or 0 to turn it off (e.g. WORKER_METRICS_PORT=9465 durable-mcp dev)",
  );
  expect(portsLine(devPorts({ DATABASE_URL: 'postgres://x/y' }))).toBe(
    "the API and answer page 3000 (PORT), the Temporal dev server 7233 (TEMPORAL_DEV_PORT), Temporal's Web UI 8233 (TEMPORAL_DEV_UI_PORT), the worker's metrics 9464 (WORKER_METRICS_PORT)",
  );
});

describe('isHeld', () => {
  let held: Server;
  let port: number;
  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    port = (held.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => held.close(resolve)));

  it('is true for a port another server holds, false once it is free', async () => {
    const api = { ...devPorts({})[0]!, port };
    expect(await isHeld(api)).toBe(true);
    await new Promise((resolve) => held.close(resolve));
    expect(await isHeld(api)).toBe(false);
    held = createServer();
  });
});

it('leaves out the Web UI turned off (TEMPORAL_DEV_UI_PORT=0)', () => {
  expect(devPorts({ TEMPORAL_DEV_UI_PORT: '0' }).map((port) => port.variable)).not.toContain('TEMPORAL_DEV_UI_PORT');
});
