/**
 * A decision point for the gateway's `decide` policies, as a test runs one: it verifies each
 * evaluation's webhook signature under `secret`, keeps what it was asked, and decides by the call's
 * argument `a`: forwards (< 100), holds for the `approvers` group (< 1000), denies with `denyReason`
 * (< 10000), or fails (503).
 */
import http from 'node:http';
import { readBody } from '../../bench/baselines/http-child';
import { verifyWebhook } from '../../lib/webhooks/verify';

export interface Evaluation {
  subject: { type: string; id: string };
  resource: { type: string; id: string; properties: { arguments: { a: number; b: number } } };
  action: { name: string };
  context: { exchange_id: string; policy: string; arguments_digest: string };
}

export interface SumsDecisionPoint {
  url: string;
  asked: Evaluation[];
  close(): Promise<unknown>;
}

/** What the point answers a call whose `a` is under 10000 (at 10000 and over it fails instead). */
export const sumsDecision = (a: number, denyReason: string) =>
  a < 100
    ? { decision: true }
    : a < 1_000
      ? { decision: true, context: { approve: { anyOf: [{ group: 'approvers' }] } } }
      : { decision: false, context: { reason: denyReason } };

export async function startSumsDecisionPoint(secret: string, denyReason: string): Promise<SumsDecisionPoint> {
  const asked: Evaluation[] = [];
  const server = http.createServer((req, res) => {
    void readBody(req).then((body) => {
      verifyWebhook(req.headers as Record<string, string>, body, secret);
      const evaluation = JSON.parse(body.toString('utf8')) as Evaluation;
      asked.push(evaluation);
      const a = evaluation.resource.properties.arguments.a;
      if (a >= 10_000) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sumsDecision(a, denyReason)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/evaluation`,
    asked,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
