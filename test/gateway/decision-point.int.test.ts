/**
 * A policy that asks an external decision point (an HTTP endpoint of the test's, in the AuthZEN
 * evaluation shape) before an upstream call is forwarded: each request is signed as the service's
 * webhooks are and names the caller, the upstream tool and its full arguments; the point's answer
 * forwards the call, denies it with its reason, or holds it for an approval it addresses, answered
 * at the answer page. A point that does not answer denies (fail closed).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '../answers/browser';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { answerOnPage } from '../answers/page-answerer';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { startSumsDecisionPoint, type SumsDecisionPoint } from './sums-decision-point';
import { signInApprover, waitingQuestionOn } from './page-approver';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text;

let upstream: SdkUpstream;
let point: SumsDecisionPoint;
let service: TestService;
let origin: string;
let approver: Browser;

beforeAll(async () => {
  upstream = await startSdkUpstream();
  point = await startSumsDecisionPoint(SECRET, 'Sums this large are closed for the day.');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'decision-point-')), 'upstreams.json');
  const policy = {
    name: 'sums desk',
    tools: ['add'],
    decide: { url: point.url, secretEnv: 'SUMS_DESK_SECRET', timeoutMs: 2_000 },
  };
  writeFileSync(
    file,
    JSON.stringify({ upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', policies: [policy] }] }),
  );
  ({ service, origin } = await startDevAnsweringService(
    { name: 'none', tools: [] },
    { UPSTREAMS_FILE: file, SUMS_DESK_SECRET: SECRET },
  ));
  approver = await signInApprover(origin);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  await point?.close();
});

async function add(a: number): Promise<ToolResult> {
  const client = await connectModernClient(service.url, {});
  try {
    return (await client.callTool({ name: 'shop_add', arguments: { a, b: 1 } })) as ToolResult;
  } finally {
    await client.close();
  }
}
const upstreamCallsWith = (a: number) => upstream.calls.filter((call) => call.arguments?.a === a);

describe('a policy that asks an external decision point', () => {
  it('sends it a signed AuthZEN evaluation of the call, and forwards what it allows', async () => {
    expect(textOf(await add(5))).toBe('6');
    const evaluation = point.asked.find((e) => e.resource.properties.arguments.a === 5)!;
    expect(evaluation).toMatchObject({
      subject: { type: 'anonymous' },
      resource: { type: 'mcp_tool', id: 'shop/add', properties: { arguments: { a: 5, b: 1 } } },
      action: { name: 'tools/call' },
      context: { policy: 'sums desk', arguments_digest: expect.any(String) },
    });
  });

  it('never forwards what it denies: the caller reads its reason', async () => {
    const result = await add(5_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The gateway's policy "sums desk" does not allow the call to shop's tool "add": Sums this large are closed for the day.`,
    );
    expect(upstreamCallsWith(5_000)).toEqual([]);
  });

  it('holds the call for the approval it addresses, answered at the page, then forwards it once', async () => {
    const client = await connectModernClient(service.url, {});
    const call = client.callTool({ name: 'shop_add', arguments: { a: 500, b: 1 } });
    const question = await waitingQuestionOn(service.pool, 'shop_add');
    expect(question.message).toContain('(policy: sums desk)');
    expect((await answerOnPage(approver, origin, question.id, { action: 'accept' })).status).toBe(303);
    expect(textOf(await call)).toBe('501');
    expect(upstreamCallsWith(500)).toHaveLength(1);
    // Asked once: the approval's round does not ask the point again.
    expect(point.asked.filter((e) => e.resource.properties.arguments.a === 500)).toHaveLength(1);
    await client.close();
  });

  it('fails closed when the point does not decide', async () => {
    const result = await add(50_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the decision point could not decide (HTTP 503), and its policy fails closed');
    expect(upstreamCallsWith(50_000)).toEqual([]);
  });
});
