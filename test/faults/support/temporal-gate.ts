/**
 * A TCP relay between one service process and Temporal that a scenario can shut. Open, it relays
 * both ways; held, it swallows what the process sends, so a request the process makes after the
 * hold (a signal, say) never reaches Temporal, however long the process waits for it. That holds a
 * window open in the API by construction: whatever it committed to Postgres before the request is
 * done, the request itself is not, until the scenario kills the process.
 */
import net from 'node:net';

export interface TemporalGate {
  /** `host:port` for the process's TEMPORAL_ADDRESS. */
  address: string;
  /** From now on, nothing the process sends reaches Temporal (on any connection, new ones too). */
  hold(): void;
  close(): Promise<void>;
}

export async function openTemporalGate(temporalAddress: string): Promise<TemporalGate> {
  const [host, port] = temporalAddress.split(':') as [string, string];
  let held = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      if (!held) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: gatePort } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${gatePort}`,
    hold: () => {
      held = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
