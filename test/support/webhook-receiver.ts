/**
 * A webhook receiver for tests: a loopback HTTP server that checks each delivery's Standard
 * Webhooks signature against `secrets` (a delivery that fails it throws in the server, and so is
 * never kept) and keeps every event it took, in order of arrival.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../lib/webhooks';

export interface WebhookReceiver<E> {
  /** Every event taken so far. */
  events: E[];
  /** Listens on a free loopback port; its URL (`/hook`). */
  listen(): Promise<string>;
  close(): void;
}

export function webhookReceiver<E>(secrets: string[]): WebhookReceiver<E> {
  const events: E[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      verifyWebhook(req.headers, body, secrets);
      events.push(JSON.parse(body) as E);
      res.end();
    });
  });
  return {
    events,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => void server.close(),
  };
}
