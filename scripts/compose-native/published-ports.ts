/**
 * Compose's `ports:` natively: a listener on the host address and port that forwards each TCP
 * connection to the service's own address and container port, as Docker's port publishing does.
 * Clients then reach a service where an operator's clients reach it under compose
 * (127.0.0.1:3000 for the API), and the listener outlives restarts of the service behind it.
 */
import net from 'node:net';
import type { PublishedPort } from './compose-project';

export interface Publisher {
  /** `host:port` clients connect to. */
  readonly address: string;
  close(): Promise<void>;
}

export async function publishPort(port: PublishedPort, serviceAddress: string): Promise<Publisher> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port.containerPort, serviceAddress);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // A service that is down (or restarting) resets the client, as a refused connection would.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port.hostPort, port.hostIp, () => resolve());
  });
  return {
    address: `${port.hostIp}:${port.hostPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
