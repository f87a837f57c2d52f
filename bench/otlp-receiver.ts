/**
 * A collector for the bench: an OTLP/HTTP endpoint (JSON, as the service's exporter sends it) on
 * a free loopback port that keeps every span it is sent, name and edges only. The service is
 * pointed at it with OTEL_EXPORTER_OTLP_ENDPOINT.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TimedSpan } from './leg-breakdown';

interface OtlpSpan {
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

/** Nanoseconds since the epoch (a decimal string, to keep their precision) in milliseconds. */
export function nanosToMs(nanos: string | number): number {
  const text = String(nanos);
  if (text.length <= 6) return Number(text) / 1e6;
  return Number(text.slice(0, -6)) + Number(text.slice(-6)) / 1e6;
}

export function spansOf(body: OtlpExport): TimedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        startMs: nanosToMs(span.startTimeUnixNano),
        endMs: nanosToMs(span.endTimeUnixNano),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<{ url: string; spans: TimedSpan[]; close(): Promise<void> }> {
  const spans: TimedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        if (req.url === '/v1/traces') spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
