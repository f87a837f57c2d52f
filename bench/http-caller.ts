/**
 * A target's `tools/call` over HTTP, as the bench's clients make it: the 2026-07-28 request of the
 * bare caller the tests use (scripts/raw-mcp-call.ts), sent through node:http on a kept-alive
 * connection. That is the channel the `floor` target's worker posts its steps back on
 * (bench/baselines/bare-worker.ts), so the HTTP targets and the floor pay the same HTTP stack, and
 * the figures are the server's rather than the client library's: fetch (undici) adds about 0.7 ms
 * to each request made at a person's pace on this machine (bench/README.md).
 */
import http from 'node:http';
import { mcpRequestOf, type RpcReply } from '../scripts/raw-mcp-call';
import type { Caller } from './load';

/** What one reply may be before the caller gives up on it: no bench reply comes near it. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** `headers`: sent with every request (a caller's `authorization`, read afresh each time: it may be renewed). */
export function httpCaller(url: string, headers: () => Record<string, string> = () => ({})): Caller {
  const agent = new http.Agent({ keepAlive: true });
  return async (params, signal) => {
    const { status, body } = await post(url, agent, 'tools/call', params, signal, headers());
    if (body.error) throw new Error(`HTTP ${status}: JSON-RPC error ${body.error.code} ${body.error.message}`);
    if (status !== 200 || !body.result) throw new Error(`HTTP ${status}: no result`);
    return body.result;
  };
}

function post(
  url: string,
  agent: http.Agent,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  extraHeaders: Record<string, string>,
): Promise<RpcReply> {
  const request = mcpRequestOf(method, params);
  const { body } = request;
  const headers = { ...request.headers, ...extraHeaders };
  return new Promise<RpcReply>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, signal, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_REPLY_BYTES) response.destroy(new Error(`reply over ${MAX_REPLY_BYTES} bytes`));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          try {
            resolve({ status, body: JSON.parse(text) as RpcReply['body'] });
          } catch {
            reject(new Error(`HTTP ${status}: not JSON: ${text.slice(0, 200)}`));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
