/**
 * A TLS-terminating proxy in front of a plaintext Temporal (the CLI's dev server has no TLS
 * flags): it asks every client for a certificate signed by its CA (mutual TLS), speaks HTTP/2 over
 * ALPN as a gRPC server does, and pipes each accepted connection to the server's plain port.
 */
import { readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';

export interface TlsProxy {
  /** `127.0.0.1:<port>` */
  address: string;
  /** Handshakes it refused, with the reason (an untrusted client certificate, say). */
  readonly refused: string[];
  close(): Promise<void>;
}

export async function startTlsProxy(options: {
  target: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
}): Promise<TlsProxy> {
  const [targetHost, targetPort] = options.target.split(':') as [string, string];
  const sockets = new Set<net.Socket>();
  const refused: string[] = [];
  const server = tls.createServer(
    {
      key: readFileSync(options.serverKey),
      cert: readFileSync(options.serverCert),
      ca: readFileSync(options.caCert),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      const upstream = net.connect(Number(targetPort), targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    },
  );
  server.on('tlsClientError', (error) => refused.push(error.message));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    refused,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
