/**
 * The demo handler set driven to completion by the official 2026-07-28 client on the real engine:
 * a three-round exchange using all three embedded request kinds, a decline that ends the flow,
 * a multi-step form, a prompt and a resource template; and requestState that must be refused.
 */
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec } from '../../lib/state/request-state';
import { createSealer } from '../../lib/state/sealer';
import { exchangeStartedBy } from '../support/exchange-rows';
import { connectModernClient } from '../support/modern-client';
import { accept, rawCall } from '../support/raw-mcp';
import { useTestService } from '../support/test-service';

const assistant = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});

describe('demo handlers with the official client', () => {
  const service = useTestService();

  it('approves a deployment in three rounds: roots and sampling, then a person', async () => {
    const asked: string[] = [];
    const client = await connectModernClient(service.url, {
      roots: [{ uri: 'file:///src/checkout', name: 'checkout' }],
      sample: () => assistant('Adds retries to payment capture.'),
      elicit: ({ message }) => {
        asked.push(message);
        return { action: 'accept', content: { approve: true, ticket: 'CHG-42' } };
      },
    });
    let exchange: { id: string };
    try {
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      let result!: Awaited<ReturnType<typeof client.callTool>>;
      exchange = await exchangeStartedBy(service.pool, 'deploy_service', async () => {
        result = await client.callTool(
          { name: 'deploy_service', arguments: { service: 'checkout', version: '2.1.0', environment: 'production' } },
          { onprogress: (p) => progress.push(p) },
        );
      });
      expect(result.content).toEqual([
        { type: 'text', text: 'Approved: checkout@2.1.0 to production (ticket CHG-42).' },
      ]);
      // The rollout's progress reached the client over the last leg's SSE response, in order.
      // (The client also reports its own input-required rounds as progress; those are left out.)
      const rollout = progress.filter((p) => p.message?.startsWith('Roll'));
      expect(rollout.map((p) => p.progress)).toEqual([0, 1, 2, 3]);
      expect(rollout.at(-1)).toMatchObject({ total: 3, message: 'Rolled out checkout@2.1.0 to production' });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('Adds retries to payment capture.');
      expect(asked[0]).toContain('the client has checkout open (file:///src/checkout)');
    } finally {
      await client.close();
    }
    const { rows } = await service.pool.query(
      'SELECT round, outcome_kind FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
      [exchange.id],
    );
    expect(rows).toEqual([
      { round: 1, outcome_kind: 'ask' },
      { round: 2, outcome_kind: 'ask' },
      { round: 3, outcome_kind: 'complete' },
    ]);
  });

  it('ends the deployment on a decline instead of asking again', async () => {
    let asks = 0;
    const client = await connectModernClient(service.url, {
      roots: [],
      sample: () => assistant('Small fix.'),
      elicit: () => {
        asks += 1;
        return { action: 'decline' };
      },
    });
    try {
      const result = await client.callTool({
        name: 'deploy_service',
        arguments: { service: 'search', version: '1.0.1', environment: 'staging' },
      });
      expect(result.content).toEqual([
        { type: 'text', text: 'Not approved: search@1.0.1 to staging will not be deployed.' },
      ]);
      expect(asks).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('refuses an ask the client cannot answer with -32021 naming every missing capability', async () => {
    const reply = await rawCall(
      service.url,
      'tools/call',
      { name: 'deploy_service', arguments: { service: 'a', version: '1', environment: 'staging' } },
      { elicitation: {} },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {}, sampling: {} } },
    });
  });

  it('walks the onboarding wizard through its three forms', async () => {
    const answers = [
      { name: 'Ada', email: 'ada@example.com' },
      { team: 'platform', role: 'engineer' },
      { confirm: true },
    ];
    const client = await connectModernClient(service.url, () => ({ action: 'accept', content: answers.shift()! }));
    try {
      const result = await client.callTool({ name: 'onboarding_wizard', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Welcome aboard, Ada (engineer, platform).' }]);
      expect(answers).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('serves a prompt that asks first, and a resource template', async () => {
    const client = await connectModernClient(service.url, () => ({ action: 'accept', content: { severity: 'sev2' } }));
    try {
      const prompt = await client.getPrompt({ name: 'incident_brief', arguments: { service: 'search' } });
      expect(prompt.messages[0]!.content).toMatchObject({
        text: expect.stringContaining('sev2 incident brief for search'),
      });
      const resource = await client.readResource({ uri: 'runbooks://checkout' });
      expect(resource.contents[0]).toMatchObject({ uri: 'runbooks://checkout', mimeType: 'text/markdown' });
    } finally {
      await client.close();
    }
  });
});

describe('requestState that must be refused', () => {
  const service = useTestService({ REQUEST_STATE_TTL_MS: '1500' });

  const refused = { code: -32602, message: 'Invalid or expired requestState' };
  const greetAsk = async () =>
    (await rawCall(service.url, 'tools/call', { name: 'greet', arguments: { greeting: 'Hi' } })).body.result!;

  it('refuses an expired requestState', async () => {
    const ask = await greetAsk();
    await new Promise((r) => setTimeout(r, 1_800));
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: { greeting: 'Hi' },
      inputResponses: { name: accept({ name: 'A' }) },
      requestState: ask.requestState,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual(refused);
  });

  it('refuses a requestState sent with other arguments', async () => {
    const ask = await greetAsk();
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: { greeting: 'Bye' },
      inputResponses: { name: accept({ name: 'A' }) },
      requestState: ask.requestState,
    });
    expect(reply.body.error).toEqual(refused);
  });

  it('refuses a requestState of another exchange’s call', async () => {
    const ask = await greetAsk();
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'guess_number',
      arguments: {},
      inputResponses: { guess: accept({ guess: 1 }) },
      requestState: ask.requestState,
    });
    expect(reply.body.error).toEqual(refused);
  });

  it('refuses a requestState sealed with a key this deployment does not hold', async () => {
    const foreign = createRequestStateCodec(createSealer([{ kid: 'other', key: randomBytes(32) }]), 60_000);
    const ask = await greetAsk();
    void ask;
    const forged = foreign.mint({
      exchangeId: '00000000-0000-0000-0000-000000000000',
      round: 1,
      kind: 'ask',
      requestDigest: 'x',
      principal: 'anonymous',
    });
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: { greeting: 'Hi' },
      inputResponses: { name: accept({ name: 'A' }) },
      requestState: forged,
    });
    expect(reply.body.error).toEqual(refused);
  });
});
