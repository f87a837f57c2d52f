import { createServer } from 'node:net';
import { listenFailure } from './listen-failure';

it('names the held port, the API and the variable that moves it', async () => {
  const held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  const { port } = held.address() as { port: number };
  const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
    const second = createServer();
    second.once('error', resolve);
    second.listen(port, '127.0.0.1');
  });
  await new Promise((resolve) => held.close(resolve));
  const failure = listenFailure(error, '127.0.0.1', port);
  expect(failure.message).toBe(
    `port ${port} (the API, 127.0.0.1:${port}) is in use by another process: set PORT to a free port (or stop the other process)`,
  );
});

it('says which HOST is not an address here', () => {
  const error = Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' });
  expect(listenFailure(error, '10.9.9.9', 3000).message).toContain('HOST 10.9.9.9 is not an address');
});
