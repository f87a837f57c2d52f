/**
 * Answers kept out of sight in Temporal, against the real service, Temporal dev server and
 * Postgres: an exchange whose arguments and answer carry recognizable secrets leaves neither in
 * its event history as a Temporal client without the codec reads it, while the service's data
 * converter, the codec endpoint and the `temporal` CLI through that endpoint read them back. The
 * endpoint decodes only for the admin token or a signed-in browser of an allowed origin, for the
 * service's namespace, within its body budget; and a history encrypted under an old key still
 * reads, and its exchange still runs, after a new key is prepended. Every payload is bound to the
 * exchange it belongs to: one an attacker with access to Temporal's frontend (and no key) copies
 * from one exchange's history into another's, as a signal, is refused by the worker and never
 * answers that exchange, while its own exchange completed with it.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { findTemporalCli } from '../../cli/dev/local-stack/temporal-dev-server';
import { parseKeyRing } from '../../lib/config';
import {
  BINDING_METADATA,
  createPayloadCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  type PayloadBinding,
} from '../../lib/payload-codec/payload-codec';
import { payloadsFromJson, payloadsToJson } from '../../lib/payload-codec/payloads-json';
import { TEST_ADMIN_TOKEN, type AdminReply } from '../support/admin-client';
import { exchangeStartedBy, exchangeStatus } from '../support/exchange-rows';
import { decodedHistory, encodingOf, payloadsIn, visibleText } from '../support/history-payloads';
import { accept, rawCall } from '../support/raw-mcp';
import { startTestService, TEST_CODEC_KEY_RING, type TestService } from '../support/test-service';

const ENCODE_TOKEN = `test-encode-${randomBytes(24).toString('hex')}`;
/** Wrong admin tokens one client address may send before it is locked out (ADMIN_TOKEN_MAX_FAILURES). */
const GUESS_BUDGET = 5;

const run = promisify(execFile);
const UI_ORIGIN = 'http://ui.example.test:8233';
const ARGUMENT_SECRET = `acct-${randomBytes(8).toString('hex')}`;
const ANSWER_SECRET = `pin-${randomBytes(8).toString('hex')}`;

const approve = defineTool({
  tool: { name: 'codec_approve', inputSchema: { type: 'object' } },
  run: (args, ctx) => {
    const answer = ctx.inputResponses.approval as { content?: { pin?: string } } | undefined;
    if (answer)
      return { content: [{ type: 'text', text: `approved ${String(args.account)} with ${answer.content?.pin}` }] };
    return inputRequired({
      inputRequests: {
        approval: inputRequired.elicit({
          message: 'Your PIN, please',
          requestedSchema: { type: 'object', properties: { pin: { type: 'string' } }, required: ['pin'] },
        }),
      },
    });
  },
});
// A result Postgres cannot store (a NUL) fails its round's activity for good: a failure in history.
const unstorable = defineTool({
  tool: { name: 'codec_unstorable', inputSchema: { type: 'object' } },
  roundActivity: 'regular',
  run: () => ({ content: [{ type: 'text', text: 'a\u0000b' }] }),
});
const handlers: HandlerSet = { name: 'codec-test', tools: [approve, unstorable] };

/** What an encrypted payload of a history says it is bound to. */
const bindingOf = (payload: Payload): PayloadBinding =>
  JSON.parse(Buffer.from(payload.metadata![BINDING_METADATA]!).toString()) as PayloadBinding;

/**
 * Runs one exchange of `codec_approve` to its end; its workflow id. The first leg goes to `first`;
 * `handOver`, when given, runs between the legs and names the service the answer goes to.
 */
async function approvedExchange(first: TestService, handOver?: () => Promise<TestService>): Promise<string> {
  const params = { name: 'codec_approve', arguments: { account: ARGUMENT_SECRET } };
  let requestState: unknown;
  const exchange = await exchangeStartedBy(first.pool, 'codec_approve', async () => {
    requestState = (await rawCall(first.url, 'tools/call', params)).body.result?.requestState;
  });
  const second = handOver ? await handOver() : first;
  const done = await rawCall(second.url, 'tools/call', {
    ...params,
    inputResponses: { approval: accept({ pin: ANSWER_SECRET }) },
    requestState,
  });
  expect(done.body.result?.content).toEqual([
    { type: 'text', text: `approved ${ARGUMENT_SECRET} with ${ANSWER_SECRET}` },
  ]);
  await second.temporal.workflow.getHandle(exchange.workflow_id).result();
  return exchange.workflow_id;
}

describe('payloads in Temporal', () => {
  let service: TestService;
  let connection: Connection;
  /** Sees Temporal as someone with access to it but not to the codec. */
  let bare: Client;
  const codecUrl = () => service.url.replace(/\/mcp$/, '/codec');
  /** POST /codec/encode's own credential. */
  const asEncoder = { authorization: `Bearer ${ENCODE_TOKEN}` };

  beforeAll(async () => {
    service = await startTestService(
      {
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        CODEC_ENCODE_TOKEN: ENCODE_TOKEN,
        TEMPORAL_UI_URL: `${UI_ORIGIN}/`,
        CODEC_MAX_BODY_BYTES: '65536',
        // The tests stand for a TLS-terminating proxy on loopback: its X-Forwarded-* are believed.
        TRUST_PROXY: 'loopback',
        ADMIN_TOKEN_MAX_FAILURES: String(GUESS_BUDGET),
      },
      { handlers },
    );
    connection = await Connection.connect({ address: service.config.temporal.address });
    bare = new Client({ connection, namespace: service.config.temporal.namespace });
  });
  afterAll(async () => {
    await connection?.close();
    await service?.close();
  });

  describe('the event history', () => {
    let workflowId: string;
    beforeAll(async () => {
      workflowId = await approvedExchange(service);
    });

    it('holds neither the arguments nor the answer, read without the codec', async () => {
      const history = await bare.workflow.getHandle(workflowId).fetchHistory();
      const text = visibleText(history);
      expect(text).not.toContain(ARGUMENT_SECRET);
      expect(text).not.toContain(ANSWER_SECRET);
      expect(text).toContain(ENCRYPTED_ENCODING);
      // Every payload is encrypted (input, summary, signal, the rounds' results, the result) but the
      // search attributes and what the SDK itself records of a local activity (its sequence number,
      // type and times, beside its encrypted result).
      const payloads = payloadsIn(history);
      const clear = payloads.filter(
        ({ path, payload }) =>
          encodingOf(payload) !== ENCRYPTED_ENCODING &&
          !/\.searchAttributes\.indexedFields\.\w+$/.test(path) &&
          !/markerRecordedEventAttributes\.details\.data\.payloads\.\d+$/.test(path),
      );
      expect(clear.map(({ path, payload }) => `${path}: ${encodingOf(payload)}`)).toEqual([]);
      const encrypted = payloads.filter(({ payload }) => encodingOf(payload) === ENCRYPTED_ENCODING);
      expect(encrypted.length).toBeGreaterThanOrEqual(4);
      expect(
        encrypted.every(({ payload }) => Buffer.from(payload.metadata![KEY_ID_METADATA]!).toString() === 'codec1'),
      ).toBe(true);
    });

    it('binds every payload to this exchange: its own as the workflow, its local rounds as local activities', async () => {
      const history = await bare.workflow.getHandle(workflowId).fetchHistory();
      const encrypted = payloadsIn(history).filter(({ payload }) => encodingOf(payload) === ENCRYPTED_ENCODING);
      const bound = encrypted.map(({ path, payload }) => ({ path, ...bindingOf(payload) }));
      expect(bound.filter((b) => b.namespace !== 'default' || b.workflowId !== workflowId)).toEqual([]);
      const roleAt = (pattern: RegExp) => [...new Set(bound.filter((b) => pattern.test(b.path)).map((b) => b.role))];
      expect(roleAt(/workflowExecutionStartedEventAttributes\.input/)).toEqual(['workflow']);
      expect(roleAt(/workflowExecutionSignaledEventAttributes\.input/)).toEqual(['workflow']);
      expect(roleAt(/workflowExecutionCompletedEventAttributes\.result/)).toEqual(['workflow']);
      // A local round's result is in its marker, written by the activity side and read by the workflow.
      expect(roleAt(/markerRecordedEventAttributes\.details/)).toEqual(['local-activity']);
    });

    it('holds both, read through the codec', async () => {
      const history = await bare.workflow.getHandle(workflowId).fetchHistory();
      const codec = createPayloadCodec({
        keys: parseKeyRing('PAYLOAD_CODEC_KEYS', TEST_CODEC_KEY_RING),
        acceptPlaintext: true,
        namespace: service.config.temporal.namespace,
      });
      const text = visibleText(await decodedHistory(history, codec));
      expect(text).toContain(ARGUMENT_SECRET);
      expect(text).toContain(ANSWER_SECRET);
    });

    it('reads as the service wrote it through a client with the service data converter, and not without', async () => {
      const handle = service.temporal.workflow.getHandle(workflowId);
      expect(await handle.result()).toMatchObject({ status: 'completed', rounds: 2, asks: 1 });
      await expect(bare.workflow.getHandle(workflowId).result()).rejects.toThrow(/binary\/encrypted|encoding/i);
    });

    it("keeps a failure's message encoded, readable through the codec", async () => {
      const exchange = await exchangeStartedBy(service.pool, 'codec_unstorable', () =>
        rawCall(service.url, 'tools/call', { name: 'codec_unstorable', arguments: {} }),
      );
      await service.temporal.workflow.getHandle(exchange.workflow_id).result();
      const history = await bare.workflow.getHandle(exchange.workflow_id).fetchHistory();
      const failed = history.events!.find(
        (e) => e.activityTaskFailedEventAttributes,
      )!.activityTaskFailedEventAttributes!;
      expect(failed.failure).toMatchObject({ message: 'Encoded failure', stackTrace: '' });
      expect(failed.failure!.applicationFailureInfo).toMatchObject({ type: 'UnrecordableOutcome', nonRetryable: true });
      expect(visibleText(history)).not.toContain('Postgres cannot store');
      // A regular round: its input (written by the workflow) and its failure (by the activity worker)
      // are bound to that activity of this exchange.
      const scheduled = history.events!.find(
        (e) => e.activityTaskScheduledEventAttributes,
      )!.activityTaskScheduledEventAttributes!;
      const expected = {
        namespace: 'default',
        workflowId: exchange.workflow_id,
        role: 'activity',
        activityId: scheduled.activityId,
      };
      expect(bindingOf(scheduled.input!.payloads![0]!)).toEqual(expected);
      expect(bindingOf(failed.failure!.encodedAttributes!)).toEqual(expected);
      const codec = createPayloadCodec({
        keys: parseKeyRing('PAYLOAD_CODEC_KEYS', TEST_CODEC_KEY_RING),
        acceptPlaintext: true,
        namespace: service.config.temporal.namespace,
      });
      expect(visibleText(await decodedHistory(history, codec))).toContain('it holds a character Postgres cannot store');
    });

    const cli = findTemporalCli();
    (cli ? it : it.skip)(
      'shows both to the temporal CLI through the codec endpoint, and neither without it',
      async () => {
        const show = async (...extra: string[]) =>
          (
            await run(cli!, [
              'workflow',
              'show',
              '--address',
              service.config.temporal.address,
              '--namespace',
              service.config.temporal.namespace,
              '--workflow-id',
              workflowId,
              '--output',
              'json',
              ...extra,
            ])
          ).stdout;
        // The CLI prints proto3 JSON, payloads in base64: read them as payloads again.
        const shown = async (...extra: string[]) =>
          visibleText(
            payloadsIn(JSON.parse(await show(...extra)) as { events: unknown[] }).map(
              ({ payload }) => payloadsFromJson({ payloads: [payload] })[0],
            ),
          );
        const without = await shown();
        expect(without).not.toContain(ARGUMENT_SECRET);
        expect(without).not.toContain(ANSWER_SECRET);
        expect(without).toContain(ENCRYPTED_ENCODING);
        const decoded = await shown('--codec-endpoint', codecUrl(), '--codec-auth', `Bearer ${TEST_ADMIN_TOKEN}`);
        expect(decoded).toContain(ARGUMENT_SECRET);
        expect(decoded).toContain(ANSWER_SECRET);
        expect(decoded).not.toContain(ENCRYPTED_ENCODING);
      },
    );

    it('shows the workflow input decoded through the codec endpoint with the admin token', async () => {
      const history = await bare.workflow.getHandle(workflowId).fetchHistory();
      const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads as Payload[];
      const reply = await codec('/decode', payloadsToJson(input));
      expect(reply.status).toBe(200);
      const [decoded] = payloadsFromJson(reply.body);
      expect(JSON.parse(Buffer.from(decoded!.data!).toString())).toMatchObject({
        request: { params: { arguments: { account: ARGUMENT_SECRET } } },
      });
    });
  });

  /** A browser's sign-in form, posted with `token` (and `headers`, a proxy's, say). */
  function signIn(token: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${codecUrl()}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ token }).toString(),
      redirect: 'manual',
    });
  }

  /** A request to the codec endpoint: the admin token and the namespace unless told otherwise. */
  async function codec(path: string, body: unknown, headers: Record<string, string | null> = {}): Promise<AdminReply> {
    const sent: Record<string, string> = {
      'content-type': 'application/json',
      'x-namespace': service.config.temporal.namespace,
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
    };
    for (const [name, value] of Object.entries(headers)) {
      if (value === null) delete sent[name];
      else sent[name] = value;
    }
    const response = await fetch(`${codecUrl()}${path}`, {
      method: 'POST',
      headers: sent,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  }

  describe('the codec endpoint', () => {
    const sample = payloadsToJson([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(`"${ANSWER_SECRET}"`) },
    ]);

    it('refuses to encode with the admin token or a sign-in: encoding forges payloads, and has its own token', async () => {
      const withAdminToken = await codec('/encode', sample);
      expect(withAdminToken.status).toBe(401);
      expect(withAdminToken.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(withAdminToken.body).not.toHaveProperty('payloads');
      // The admin token still decodes.
      expect((await codec('/decode', (await codec('/encode', sample, asEncoder)).body)).status).toBe(200);
    });

    it('encodes under the first key and decodes back, in proto3 JSON', async () => {
      const encoded = await codec('/encode', sample, asEncoder);
      expect(encoded.status).toBe(200);
      const [sealed] = payloadsFromJson(encoded.body);
      expect(Buffer.from(sealed!.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
      expect(JSON.stringify(encoded.body)).not.toContain(Buffer.from(`"${ANSWER_SECRET}"`).toString('base64'));
      const decoded = await codec('/decode', encoded.body);
      expect(decoded.status).toBe(200);
      expect(decoded.body).toEqual(sample);
      expect(decoded.headers.get('cache-control')).toBe('no-store');
    });

    it.each([
      ['without a token', { authorization: null }, 'Bearer realm="durable-mcp codec"'],
      [
        'with a wrong token',
        { authorization: 'Bearer not-the-admin-token' },
        'Bearer realm="durable-mcp codec", error="invalid_token"',
      ],
      [
        'with another scheme',
        { authorization: `Basic ${Buffer.from(`x:${TEST_ADMIN_TOKEN}`).toString('base64')}` },
        'Bearer realm="durable-mcp codec"',
      ],
    ])('refuses to decode %s (401)', async (_case, headers, challenge) => {
      const reply = await codec('/decode', sample, headers);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe(challenge);
      expect(reply.body.error.code).toBe('unauthorized');
      expect(JSON.stringify(reply.body)).not.toContain(ANSWER_SECRET);
    });

    it('refuses another namespace, or none, naming the one it serves (400)', async () => {
      const other = await codec('/decode', sample, { 'x-namespace': 'someone-else' });
      expect(other.status).toBe(400);
      expect(other.body.error).toMatchObject({ code: 'invalid_parameter', parameter: 'X-Namespace' });
      expect(other.body.error.message).toMatch(/serves namespace "default" only, not "someone-else"/);
      expect((await codec('/decode', sample, { 'x-namespace': null })).status).toBe(400);
    });

    it('refuses a body over CODEC_MAX_BODY_BYTES (413), one that is not JSON (400/415), and names a bad field', async () => {
      const big = payloadsToJson([{ metadata: { encoding: Buffer.from('binary/plain') }, data: randomBytes(70_000) }]);
      const tooLarge = await codec('/decode', big);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.error).toMatchObject({ code: 'too_large' });
      expect(tooLarge.body.error.message).toMatch(/CODEC_MAX_BODY_BYTES \(65536 bytes\)/);
      expect((await codec('/decode', '{"payloads":', {})).status).toBe(400);
      expect((await codec('/decode', 'payloads', { 'content-type': 'text/plain' })).status).toBe(415);
      const bad = await codec('/decode', { payloads: [{ data: 7 }] });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ parameter: 'payloads[0].data' });
    });

    it('refuses a payload that does not open, saying why (422)', async () => {
      const [sealed] = payloadsFromJson((await codec('/encode', sample, asEncoder)).body);
      const data = Buffer.from(sealed!.data!);
      data[20] = data[20]! ^ 1;
      const reply = await codec('/decode', payloadsToJson([{ ...sealed!, data }]));
      expect(reply.status).toBe(422);
      expect(reply.body.error).toMatchObject({ code: 'undecodable', reason: 'authentication' });
    });

    it("answers the Temporal UI's CORS preflight, and only its origin's", async () => {
      const preflight = (origin: string) =>
        fetch(`${codecUrl()}/decode`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,x-namespace',
          },
        });
      const allowed = await preflight(UI_ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
      expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
      expect(allowed.headers.get('vary')).toMatch(/Origin/);
      const other = await preflight('http://evil.example.test:8233');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // The request itself, from another origin, is refused before anything is decoded.
      const direct = await codec('/decode', sample, { origin: 'http://evil.example.test:8233' });
      expect(direct.status).toBe(403);
      expect(direct.body.error.code).toBe('forbidden');
      const fromUi = await codec('/decode', sample, { origin: UI_ORIGIN });
      expect(fromUi.status).toBe(200);
      expect(fromUi.headers.get('access-control-allow-origin')).toBe(UI_ORIGIN);
    });

    it('lets a browser signed in with the admin token decode with its cookie, until it signs out', async () => {
      const form = await fetch(`${codecUrl()}/sign-in`);
      expect(form.status).toBe(200);
      expect(await form.text()).toContain('name="token"');
      expect(form.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      const refused = await signIn('not-the-admin-token');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('set-cookie')).toBeNull();
      const signedIn = await signIn(TEST_ADMIN_TOKEN);
      expect(signedIn.status).toBe(200);
      expect(await signedIn.text()).toContain('For 1 hour this browser may decode');
      const setCookie = signedIn.headers.get('set-cookie')!;
      // An hour by default (CODEC_SESSION_TTL_MS); not Secure over plain http.
      expect(setCookie).toMatch(
        /^durable_mcp_codec=\d+\.[\w-]+; Max-Age=3600; Path=\/codec; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
      );
      const cookie = setCookie.split(';')[0]!;
      const withCookie = await codec('/decode', sample, { authorization: null, cookie, origin: UI_ORIGIN });
      expect(withCookie.status).toBe(200);
      expect(withCookie.body).toEqual(sample);
      const forged = await codec('/decode', sample, { authorization: null, cookie: `${cookie.slice(0, -2)}xx` });
      expect(forged.status).toBe(401);
      expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      const signedOut = await fetch(`${codecUrl()}/sign-out`, { method: 'POST', headers: { cookie } });
      expect(signedOut.headers.get('set-cookie')).toMatch(
        /^durable_mcp_codec=; Path=\/codec; Expires=Thu, 01 Jan 1970/,
      );
    });

    it('marks the cookie Secure when the sign-in came over https through the trusted proxy (X-Forwarded-Proto)', async () => {
      const overTls = await signIn(TEST_ADMIN_TOKEN, { 'x-forwarded-proto': 'https' });
      expect(overTls.status).toBe(200);
      expect(overTls.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
    });

    it('locks out a client address that guesses the admin token, at sign-in and on decode alike: 429 with Retry-After', async () => {
      const guesser = { 'x-forwarded-for': '198.51.100.23' };
      for (let i = 0; i < GUESS_BUDGET; i += 1) {
        const guess = await signIn(`guess-${i}-${randomBytes(16).toString('hex')}`, guesser);
        expect(guess.status).toBe(401);
      }
      // Past the budget, even the right token is not looked at: the answer tells the guesser nothing.
      const locked = await signIn(TEST_ADMIN_TOKEN, guesser);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(locked.headers.get('set-cookie')).toBeNull();
      expect(await locked.text()).toContain('Too many wrong tokens came from this address');
      const decode = await codec('/decode', sample, guesser);
      expect(decode.status).toBe(429);
      expect(decode.body.error.code).toBe('too_many_attempts');
      expect(decode.body).not.toHaveProperty('payloads');
      // Another client behind the same proxy is not held to it, nor is the proxy itself.
      expect((await signIn(TEST_ADMIN_TOKEN, { 'x-forwarded-for': '198.51.100.24' })).status).toBe(200);
      expect((await codec('/decode', sample)).status).toBe(200);
    });

    it("refuses another site's sign-in and sign-out posts without counting them: a page cannot lock the operator out", async () => {
      const operator = { 'x-forwarded-for': '198.51.100.40' };
      const crossSite: Array<Record<string, string>> = [
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site', origin: 'https://evil.mcp.example' },
        { origin: 'https://evil.example' },
        { origin: 'null' },
      ];
      // Well past the budget of wrong tokens, from pages of other sites the operator visits.
      for (let i = 0; i < GUESS_BUDGET + 2; i += 1) {
        const posted = await signIn(`guess-${i}`, { ...operator, ...crossSite[i % crossSite.length]! });
        expect(posted.status).toBe(403);
        expect(posted.headers.get('set-cookie')).toBeNull();
        expect(await posted.text()).toContain('can only be sent from its own page');
      }
      // Even the right token is refused from another site, and a cookie is never set from there.
      const forged = await signIn(TEST_ADMIN_TOKEN, { ...operator, ...crossSite[0]! });
      expect(forged.status).toBe(403);
      const signOut = await fetch(`${codecUrl()}/sign-out`, {
        method: 'POST',
        headers: { ...operator, ...crossSite[0]! },
      });
      expect(signOut.status).toBe(403);
      expect(signOut.headers.get('set-cookie')).toBeNull();
      // None of it was counted: the operator signs in from the page itself, as a browser posts it.
      const own = await signIn(TEST_ADMIN_TOKEN, { ...operator, 'sec-fetch-site': 'same-origin', origin: 'null' });
      expect(own.status).toBe(200);
      expect(own.headers.get('set-cookie')).toMatch(/^durable_mcp_codec=/);
      const ownHost = new URL(codecUrl()).host;
      expect((await signIn(TEST_ADMIN_TOKEN, { ...operator, origin: `http://${ownHost}` })).status).toBe(200);
    });

    it('refuses every cookie issued before CODEC_SESSION_EPOCH changed, on every replica', async () => {
      const cookie = (await signIn(TEST_ADMIN_TOKEN)).headers.get('set-cookie')!.split(';')[0]!;
      expect((await codec('/decode', sample, { authorization: null, cookie })).status).toBe(200);
      // A replica of the same deployment, its epoch changed (as every replica's is, to revoke).
      const revoked = await startTestService(
        { ADMIN_TOKEN: TEST_ADMIN_TOKEN, CODEC_SESSION_EPOCH: 'revoked-1' },
        { handlers },
      );
      try {
        const decodeThere = (headers: Record<string, string>) =>
          fetch(`${revoked.url.replace(/\/mcp$/, '/codec')}/decode`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-namespace': revoked.config.temporal.namespace,
              ...headers,
            },
            body: JSON.stringify(sample),
          });
        const stale = await decodeThere({ cookie });
        expect(stale.status).toBe(401);
        expect(stale.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
        // The admin token itself still decodes there.
        expect((await decodeThere({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` })).status).toBe(200);
      } finally {
        await revoked.close();
      }
    });

    it('has no /codec/encode without CODEC_ENCODE_TOKEN (404 saying how to turn it on), and still decodes', async () => {
      const noEncoding = await startTestService({ ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { handlers });
      try {
        const post = (route: string, body: unknown = sample, token: string | null = TEST_ADMIN_TOKEN) =>
          fetch(`${noEncoding.url.replace(/\/mcp$/, '/codec')}${route}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-namespace': noEncoding.config.temporal.namespace,
              ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
            },
            body: JSON.stringify(body),
          });
        const encode = await post('/encode');
        expect(encode.status).toBe(404);
        expect(((await encode.json()) as { error: { message: string } }).error.message).toMatch(/CODEC_ENCODE_TOKEN/);
        expect((await post('/decode')).status).toBe(200);
        // The CLI's `workflow metadata` encodes its query's no arguments: nothing minted, the admin token takes it.
        const nothing = await post('/encode', {});
        expect(nothing.status).toBe(200);
        expect(await nothing.json()).toEqual({ payloads: [] });
        expect((await post('/encode', {}, null)).status).toBe(401);
      } finally {
        await noEncoding.close();
      }
    });

    it('is off without ADMIN_TOKEN: every /codec route answers 404', async () => {
      const off = await startTestService({}, { handlers });
      try {
        const reply = await fetch(`${off.url.replace(/\/mcp$/, '/codec')}/decode`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-namespace': 'default',
            authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
          },
          body: JSON.stringify(sample),
        });
        expect(reply.status).toBe(404);
        expect(((await reply.json()) as { error: { message: string } }).error.message).toMatch(
          /ADMIN_TOKEN is not set/,
        );
        expect((await fetch(`${off.url.replace(/\/mcp$/, '/codec')}/sign-in`)).status).toBe(404);
      } finally {
        await off.close();
      }
    });
  });

  describe('a payload copied from one exchange into another', () => {
    /**
     * What someone with access to Temporal's frontend but not to the keys does: takes the answer
     * signal `from` received (encrypted, as the history holds it) and signals it, as it is, to
     * `into`, through the raw gRPC API (as `temporal workflow signal` or any client would).
     */
    async function replayAnswer(from: string, into: string): Promise<void> {
      const history = await bare.workflow.getHandle(from).fetchHistory();
      const signalled = history.events!.find(
        (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'answers',
      )!.workflowExecutionSignaledEventAttributes!;
      expect(encodingOf(signalled.input!.payloads![0] as Payload)).toBe(ENCRYPTED_ENCODING);
      await bare.workflowService.signalWorkflowExecution({
        namespace: service.config.temporal.namespace,
        workflowExecution: { workflowId: into },
        signalName: 'answers',
        input: signalled.input,
        identity: 'someone-with-frontend-access',
        requestId: randomUUID(),
      });
    }

    /** Starts an exchange of `codec_approve` on `on`, which asks and waits for its PIN. */
    async function waitingExchange(on: TestService, account: string) {
      return exchangeStartedBy(on.pool, 'codec_approve', () =>
        rawCall(on.url, 'tools/call', { name: 'codec_approve', arguments: { account } }),
      );
    }

    /** Polls `read` until it returns a value, or fails after `timeoutMs`. */
    async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    /** The message of the first workflow task of `workflowId` that failed, read through the codec. */
    async function workflowTaskFailure(workflowId: string): Promise<string> {
      const failure = await until('the workflow task failure', async () => {
        const history = await bare.workflow.getHandle(workflowId).fetchHistory();
        return (
          history.events!.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes ??
          undefined
        );
      });
      const [attributes] = await createPayloadCodec(service.config.payloadCodec).decode([
        failure.failure!.encodedAttributes!,
      ]);
      return defaultPayloadConverter.fromPayload<{ message: string }>(attributes!).message;
    }

    it('is refused by the worker: the other exchange never takes it, and its own exchange completed with it', async () => {
      // A answered and completed (with ANSWER_SECRET as its PIN); B waits for its own PIN.
      const a = await approvedExchange(service);
      const b = await waitingExchange(service, 'someone-else');
      const bHandle = service.temporal.workflow.getHandle(b.workflow_id);
      try {
        await replayAnswer(a, b.workflow_id);
        // B's worker cannot decode the copied answer: its workflow task fails, saying why, and is retried.
        // Its message is encoded too, bound to the namespace alone: the SDK names no context there.
        const message = await workflowTaskFailure(b.workflow_id);
        expect(message).toContain(
          `an encrypted payload was refused: it is bound to workflow "${a}", not "${b.workflow_id}"`,
        );
        expect(message).not.toContain(ANSWER_SECRET);
        // B took no answer: still running in Postgres, its workflow still waiting for its first round's.
        expect(await exchangeStatus(service.pool, b.id)).toBe('running');
        expect((await bHandle.describe()).status.name).toBe('RUNNING');
        // A, whose answer it was, completed with it.
        expect(await service.temporal.workflow.getHandle(a).result()).toMatchObject({ status: 'completed' });
      } finally {
        // A workflow task that cannot decode is retried, never answered: the operator ends it.
        await bHandle.terminate('test: a copied payload stalls it');
      }
    });

    it('is refused when minted by /codec/encode for the namespace only; bound with X-Workflow-Id, it names that workflow', async () => {
      const b = await waitingExchange(service, 'typed-into-the-ui');
      const bHandle = service.temporal.workflow.getHandle(b.workflow_id);
      const forged = payloadsToJson([
        { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"round":1,"responses":{}}') },
      ]);
      try {
        const minted = await codec('/encode', forged, asEncoder);
        expect(minted.status).toBe(200);
        await bare.workflowService.signalWorkflowExecution({
          namespace: service.config.temporal.namespace,
          workflowExecution: { workflowId: b.workflow_id },
          signalName: 'answers',
          input: { payloads: payloadsFromJson(minted.body) },
          identity: 'an-operator-in-the-web-ui',
          requestId: randomUUID(),
        });
        const message = await workflowTaskFailure(b.workflow_id);
        expect(message).toContain('it is bound to the namespace only and names no workflow');
        expect(await exchangeStatus(service.pool, b.id)).toBe('running');

        // Bound to one workflow: its binding names it, and only that workflow's context opens it.
        const bound = await codec('/encode', forged, { ...asEncoder, 'x-workflow-id': b.workflow_id });
        expect(bound.status).toBe(200);
        const [sealed] = payloadsFromJson(bound.body);
        expect(JSON.parse(Buffer.from(sealed!.metadata![BINDING_METADATA]!).toString())).toMatchObject({
          workflowId: b.workflow_id,
          role: 'workflow',
        });
        const workerCodec = createPayloadCodec(service.config.payloadCodec);
        const own = {
          type: 'workflow' as const,
          namespace: service.config.temporal.namespace,
          workflowId: b.workflow_id,
        };
        expect(await workerCodec.decode([sealed!], own)).toHaveLength(1);
        await expect(workerCodec.decode([sealed!], { ...own, workflowId: 'exchange-other' })).rejects.toThrow(
          /bound to workflow/,
        );
        expect((await codec('/encode', forged, { ...asEncoder, 'x-workflow-id': 'has space' })).status).toBe(400);
      } finally {
        await bHandle.terminate('test: a forged payload stalls it');
      }
    });

    it('is taken while payloads are written unbound (PAYLOAD_CODEC_UNBOUND=write, a rollout): what binding stops', async () => {
      const rollingOut = await startTestService({ PAYLOAD_CODEC_UNBOUND: 'write' }, { handlers });
      try {
        const c = await approvedExchange(rollingOut);
        const d = await waitingExchange(rollingOut, 'someone-else');
        await replayAnswer(c, d.workflow_id);
        // D completes with C's PIN: the answer of one exchange answered another.
        expect(await rollingOut.temporal.workflow.getHandle(d.workflow_id).result()).toMatchObject({
          status: 'completed',
        });
        expect(await exchangeStatus(rollingOut.pool, d.id)).toBe('completed');
      } finally {
        await rollingOut.close();
      }
    });
  });

  describe('key rotation', () => {
    const oldRing = `old:${randomBytes(32).toString('base64')}`;
    const newRing = `new:${randomBytes(32).toString('base64')}`;

    it('goes on with an exchange encrypted under an old key after a new key is prepended, and its history reads', async () => {
      const taskQueue = `test-${randomUUID()}`;
      const before = await startTestService(
        { PAYLOAD_CODEC_KEYS: oldRing, TEMPORAL_TASK_QUEUE: taskQueue },
        { handlers },
      );
      // The first round runs under the old ring alone; the answer and the second round under new,old,
      // on a worker that has none of the exchange in memory and replays its history.
      const after = await startTestService(
        { PAYLOAD_CODEC_KEYS: `${newRing},${oldRing}`, TEMPORAL_TASK_QUEUE: taskQueue },
        { handlers },
      );
      try {
        await after.stopWorker();
        const workflowId = await approvedExchange(before, async () => {
          await before.close();
          await after.startWorker();
          return after;
        });
        const history = await bare.workflow.getHandle(workflowId).fetchHistory();
        const kids = new Set(
          payloadsIn(history)
            .filter(({ payload }) => encodingOf(payload) === ENCRYPTED_ENCODING)
            .map(({ payload }) => Buffer.from(payload.metadata![KEY_ID_METADATA]!).toString()),
        );
        expect([...kids].sort()).toEqual(['new', 'old']);
        // (What is in clear is read as it is: the search attributes, the SDK's own local-activity records.)
        const rotated = createPayloadCodec({
          keys: parseKeyRing('PAYLOAD_CODEC_KEYS', `${newRing},${oldRing}`),
          acceptPlaintext: true,
          namespace: service.config.temporal.namespace,
        });
        const text = visibleText(await decodedHistory(history, rotated));
        expect(text).toContain(ARGUMENT_SECRET);
        expect(text).toContain(ANSWER_SECRET);
        // Without the old key, what it encrypted no longer opens.
        const newOnly = createPayloadCodec({
          keys: parseKeyRing('PAYLOAD_CODEC_KEYS', newRing),
          acceptPlaintext: true,
          namespace: service.config.temporal.namespace,
        });
        await expect(decodedHistory(history, newOnly)).rejects.toThrow(/key id "old"/);
      } finally {
        await after.close();
      }
    });
  });
});
