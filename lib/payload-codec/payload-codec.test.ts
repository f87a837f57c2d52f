// Pins the payload codec: round trip, nothing readable in what it seals, tamper and unknown key
// refusals, key rotation, the plaintext switch, and the binding of each payload to its namespace,
// workflow and role (a copy into another workflow or namespace refused; payloads sealed before
// binding; the codec endpoint's view, which knows the namespace alone).
import { randomBytes } from 'node:crypto';
import {
  defaultPayloadConverter,
  type ActivitySerializationContext,
  type Payload,
  type WorkflowSerializationContext,
} from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createSealer } from '../state/sealer';
import {
  BINDING_METADATA,
  createPayloadCodec,
  ENCRYPTED_ENCODING,
  KEY_ID_METADATA,
  PayloadCodecError,
} from './payload-codec';

const oldKey = { kid: 'old', key: randomBytes(32) };
const newKey = { kid: 'new', key: randomBytes(32) };
const SECRET = 'correct horse battery staple';
const NS = 'mcp-prod';
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');

async function failureOf(decode: () => Promise<unknown>): Promise<string> {
  try {
    await decode();
    return 'decoded';
  } catch (error) {
    if (error instanceof PayloadCodecError) return error.reason;
    throw error;
  }
}

describe('the payload codec', () => {
  const payload = defaultPayloadConverter.toPayload({ answer: SECRET, n: 1 });

  it('decodes what it encoded, metadata and data, to the value it was', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
    const [encoded] = await codec.encode([payload]);
    const [decoded] = await codec.decode([encoded!]);
    expect(text(decoded!.metadata!.encoding)).toBe('json/plain');
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ answer: SECRET, n: 1 });
  });

  it('keeps several payloads apart and in order, the empty list included', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
    const values = ['a', { b: 2 }, null, undefined, new Uint8Array([1, 2, 3])];
    const decoded = await codec.decode(await codec.encode(values.map((v) => defaultPayloadConverter.toPayload(v))));
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(values);
    expect(await codec.encode([])).toEqual([]);
  });

  it('seals into binary/encrypted under the first key, with nothing of the value readable', async () => {
    const codec = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: false, namespace: NS });
    const [encoded] = await codec.encode([payload]);
    expect(Object.keys(encoded!.metadata!).sort()).toEqual(['encoding', KEY_ID_METADATA, BINDING_METADATA].sort());
    expect(text(encoded!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(encoded!.metadata![KEY_ID_METADATA])).toBe('new');
    expect(text(encoded!.data)).not.toContain(SECRET);
    expect(text(encoded!.data)).not.toContain('json/plain');
  });

  it('seals the same payload differently each time (a fresh IV)', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
    const [a, b] = await codec.encode([payload, payload]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it.each([0, 12, 20, -1])('refuses a sealed payload with byte %i changed as an authentication failure', async (at) => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true, namespace: NS });
    const [encoded] = await codec.encode([payload]);
    const data = Buffer.from(encoded!.data!);
    const index = at < 0 ? data.length + at : at;
    data[index] = data[index]! ^ 0x01;
    expect(await failureOf(() => codec.decode([{ ...encoded!, data }]))).toBe('authentication');
  });

  it('refuses a sealed payload whose key id was swapped for another key of the ring', async () => {
    const codec = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: true, namespace: NS });
    const [encoded] = await codec.encode([payload]);
    const swapped: Payload = { ...encoded!, metadata: { ...encoded!.metadata, [KEY_ID_METADATA]: Buffer.from('old') } };
    expect(await failureOf(() => codec.decode([swapped]))).toBe('authentication');
  });

  it('refuses a payload sealed under a key id the ring does not hold, naming the key id', async () => {
    const [sealed] = await createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS }).encode([
      payload,
    ]);
    const codec = createPayloadCodec({ keys: [newKey], acceptPlaintext: true, namespace: NS });
    await expect(codec.decode([sealed!])).rejects.toThrow(/key id "old", which PAYLOAD_CODEC_KEYS does not hold/);
    expect(await failureOf(() => codec.decode([sealed!]))).toBe('unknown-key');
  });

  it('refuses a key of the same id but different bytes as an authentication failure', async () => {
    const [sealed] = await createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS }).encode([
      payload,
    ]);
    const impostor = createPayloadCodec({
      keys: [{ kid: 'old', key: randomBytes(32) }],
      acceptPlaintext: false,
      namespace: NS,
    });
    expect(await failureOf(() => impostor.decode([sealed!]))).toBe('authentication');
  });

  it('refuses an encrypted payload without a key id, or too short to hold one', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true, namespace: NS });
    const encoding = Buffer.from(ENCRYPTED_ENCODING);
    expect(await failureOf(() => codec.decode([{ metadata: { encoding }, data: randomBytes(64) }]))).toBe('malformed');
    const short = {
      metadata: {
        encoding,
        [KEY_ID_METADATA]: Buffer.from('old'),
        [BINDING_METADATA]: Buffer.from(`{"namespace":"${NS}"}`),
      },
      data: randomBytes(20),
    };
    expect(await failureOf(() => codec.decode([short]))).toBe('malformed');
  });

  it('opens what an older key sealed after a new key is prepended, and seals new payloads under the new one', async () => {
    const before = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
    const after = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: false, namespace: NS });
    const [sealedBefore] = await before.encode([payload]);
    expect(defaultPayloadConverter.fromPayload((await after.decode([sealedBefore!]))[0]!)).toEqual({
      answer: SECRET,
      n: 1,
    });
    const [sealedAfter] = await after.encode([payload]);
    expect(text(sealedAfter!.metadata![KEY_ID_METADATA])).toBe('new');
    expect(await failureOf(() => before.decode([sealedAfter!]))).toBe('unknown-key');
  });

  it('returns a payload that is not encrypted as it is while plaintext is accepted', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true, namespace: NS });
    expect(await codec.decode([payload])).toEqual([payload]);
  });

  it('refuses a payload that is not encrypted once plaintext is no longer accepted, saying which switch', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
    await expect(codec.decode([payload])).rejects.toThrow(/PAYLOAD_CODEC_ACCEPT_PLAINTEXT is false/);
    expect(await failureOf(() => codec.decode([payload]))).toBe('plaintext-refused');
  });
});

describe('the payload codec binds each payload to what it belongs to', () => {
  const payload = defaultPayloadConverter.toPayload({ answer: SECRET });
  const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: NS });
  const workflow = (workflowId: string, namespace = NS): WorkflowSerializationContext => ({
    type: 'workflow',
    namespace,
    workflowId,
  });
  const activity = (
    workflowId: string,
    activityId: string,
    isLocal = false,
    namespace = NS,
  ): ActivitySerializationContext => ({ type: 'activity', namespace, workflowId, activityId, isLocal });
  const boundTo = (sealed: Payload) => JSON.parse(text(sealed.metadata![BINDING_METADATA])) as Record<string, string>;
  const opened = async (decode: Promise<Payload[]>) => defaultPayloadConverter.fromPayload((await decode)[0]!);

  /** A payload as the codec sealed it before binding: empty additional data, no binding metadata. */
  function sealedBeforeBinding(kid = oldKey.kid, key = oldKey.key): Payload {
    const plaintext = temporal.api.common.v1.Payload.encode(payload).finish();
    const { sealed } = createSealer([{ kid, key }]).sealBytes('temporal-payload', plaintext, '');
    return {
      metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(kid) },
      data: sealed,
    };
  }

  it("records a workflow's payload as bound to its namespace, workflow and role, and opens it there", async () => {
    const [sealed] = await codec.encode([payload], workflow('exchange-a'));
    expect(boundTo(sealed!)).toEqual({ namespace: NS, workflowId: 'exchange-a', role: 'workflow' });
    expect(await opened(codec.decode([sealed!], workflow('exchange-a')))).toEqual({ answer: SECRET });
  });

  it("refuses a workflow's payload copied into another workflow, or into the same id in another namespace", async () => {
    const [sealed] = await codec.encode([payload], workflow('exchange-a'));
    const intoB = codec.decode([sealed!], workflow('exchange-b'));
    await expect(intoB).rejects.toThrow(
      'an encrypted payload was refused: it is bound to workflow "exchange-a", not "exchange-b"',
    );
    expect(await failureOf(() => codec.decode([sealed!], workflow('exchange-b')))).toBe('bound-elsewhere');
    // The same keys serving another namespace (or a deployment of its own) do not take it either.
    const other = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, namespace: 'mcp-staging' });
    await expect(other.decode([sealed!], workflow('exchange-a', 'mcp-staging'))).rejects.toThrow(
      'it is bound to namespace "mcp-prod", not "mcp-staging"',
    );
    // The reason names where it belongs, never what it holds.
    await intoB.catch((error: Error) => expect(error.message).not.toContain(SECRET));
  });

  it('binds an activity payload to its workflow, its kind and its activity id, and opens it only there', async () => {
    const [sealed] = await codec.encode([payload], activity('exchange-a', '3'));
    expect(boundTo(sealed!)).toEqual({ namespace: NS, workflowId: 'exchange-a', role: 'activity', activityId: '3' });
    expect(await opened(codec.decode([sealed!], activity('exchange-a', '3')))).toEqual({ answer: SECRET });
    const refusals = await Promise.all(
      [
        workflow('exchange-a'), // an activity's result offered as the workflow's own (a signal, say)
        activity('exchange-a', '4'), // another round's activity of the same exchange
        activity('exchange-a', '3', true), // a local activity of the same sequence number
        activity('exchange-b', '3'), // the same activity of another exchange
      ].map(async (context) => {
        try {
          await codec.decode([sealed!], context);
          return 'decoded';
        } catch (error) {
          return (error as Error).message.replace('an encrypted payload was refused: ', '');
        }
      }),
    );
    expect(refusals).toEqual([
      'it is bound to role "activity", not "workflow"',
      'it is bound to activity "3", not "4"',
      'it is bound to role "activity", not "local-activity"',
      'it is bound to workflow "exchange-a", not "exchange-b"',
    ]);
  });

  it("binds a local activity's payload as one", async () => {
    const [sealed] = await codec.encode([payload], activity('exchange-a', '1', true));
    expect(boundTo(sealed!)).toMatchObject({ role: 'local-activity', activityId: '1' });
    expect(await opened(codec.decode([sealed!], activity('exchange-a', '1', true)))).toEqual({ answer: SECRET });
  });

  it('authenticates the binding with the payload: rewritten to fit elsewhere, or removed, it does not open', async () => {
    const [sealed] = await codec.encode([payload], workflow('exchange-a'));
    const rebound = Buffer.from(JSON.stringify({ namespace: NS, workflowId: 'exchange-b', role: 'workflow' }));
    const moved: Payload = { ...sealed!, metadata: { ...sealed!.metadata, [BINDING_METADATA]: rebound } };
    expect(await failureOf(() => codec.decode([moved], workflow('exchange-b')))).toBe('authentication');
    const { [BINDING_METADATA]: _dropped, ...unboundMetadata } = sealed!.metadata!;
    const stripped: Payload = { ...sealed!, metadata: unboundMetadata };
    expect(await failureOf(() => codec.decode([stripped], workflow('exchange-b')))).toBe('unbound-refused');
    const accepting = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false, unbound: 'accept', namespace: NS });
    expect(await failureOf(() => accepting.decode([stripped], workflow('exchange-b')))).toBe('authentication');
  });

  it("binds a payload encoded without a context to the namespace alone, which no workflow's context opens", async () => {
    // What /codec/encode mints (the UI and the CLI name only the namespace), and a failed workflow task's failure.
    const [sealed] = await codec.encode([payload]);
    expect(boundTo(sealed!)).toEqual({ namespace: NS });
    for (const context of [workflow('exchange-b'), activity('exchange-b', '1'), activity('exchange-b', '2', true)])
      await expect(codec.decode([sealed!], context)).rejects.toThrow(
        'it is bound to the namespace only and names no workflow, where workflow "exchange-b"\'s own is expected',
      );
    expect(await failureOf(() => codec.decode([sealed!], workflow('exchange-b', 'mcp-staging')))).toBe(
      'bound-elsewhere',
    );
    // Without a context (the codec endpoint, a script reading a history) it opens.
    expect(await opened(codec.decode([sealed!]))).toEqual({ answer: SECRET });
  });

  it('opens a namespace-only payload in a workflow while PAYLOAD_CODEC_NAMESPACE_ONLY is accept', async () => {
    const accepting = createPayloadCodec({
      keys: [oldKey],
      acceptPlaintext: false,
      namespace: NS,
      namespaceOnly: 'accept',
    });
    const [sealed] = await accepting.encode([payload]);
    expect(await opened(accepting.decode([sealed!], workflow('exchange-b')))).toEqual({ answer: SECRET });
    // Still never in another namespace, nor a payload bound to another workflow.
    expect(await failureOf(() => accepting.decode([sealed!], workflow('exchange-b', 'mcp-staging')))).toBe(
      'bound-elsewhere',
    );
    const [ofA] = await accepting.encode([payload], workflow('exchange-a'));
    expect(await failureOf(() => accepting.decode([ofA!], workflow('exchange-b')))).toBe('bound-elsewhere');
  });

  it("reads, without a context, any payload of its namespace and none of another's: the codec endpoint's view", async () => {
    const [ofA] = await codec.encode([payload], workflow('exchange-a'));
    const [ofRound] = await codec.encode([payload], activity('exchange-b', '2', true));
    expect(await opened(codec.decode([ofA!]))).toEqual({ answer: SECRET });
    expect(await opened(codec.decode([ofRound!]))).toEqual({ answer: SECRET });
    const [elsewhere] = await codec.encode([payload], workflow('exchange-a', 'mcp-staging'));
    await expect(codec.decode([elsewhere!])).rejects.toThrow('it is bound to namespace "mcp-staging", not "mcp-prod"');
  });

  describe('payloads sealed before binding', () => {
    it('refuses them by default, naming the setting, whatever the context', async () => {
      const old = sealedBeforeBinding();
      await expect(codec.decode([old], workflow('exchange-a'))).rejects.toThrow(/PAYLOAD_CODEC_UNBOUND is refuse/);
      expect(await failureOf(() => codec.decode([old]))).toBe('unbound-refused');
    });

    it('reads them, in any context, while PAYLOAD_CODEC_UNBOUND is accept, and still writes bound payloads', async () => {
      const upgrading = createPayloadCodec({
        keys: [oldKey],
        acceptPlaintext: false,
        unbound: 'accept',
        namespace: NS,
      });
      expect(await opened(upgrading.decode([sealedBeforeBinding()], workflow('exchange-a')))).toEqual({
        answer: SECRET,
      });
      expect(await opened(upgrading.decode([sealedBeforeBinding()], activity('exchange-b', '1', true)))).toEqual({
        answer: SECRET,
      });
      const [sealed] = await upgrading.encode([payload], workflow('exchange-a'));
      expect(boundTo(sealed!)).toMatchObject({ workflowId: 'exchange-a' });
      expect(await failureOf(() => upgrading.decode([sealed!], workflow('exchange-b')))).toBe('bound-elsewhere');
      // Still sealed, and under its key: a payload sealed before binding is no way around authentication.
      const forged = sealedBeforeBinding('old', randomBytes(32));
      expect(await failureOf(() => upgrading.decode([forged]))).toBe('authentication');
    });

    it('writes them as before while PAYLOAD_CODEC_UNBOUND is write, so a worker of the earlier version reads them', async () => {
      const rollingOut = createPayloadCodec({
        keys: [oldKey],
        acceptPlaintext: false,
        unbound: 'write',
        namespace: NS,
      });
      const [sealed] = await rollingOut.encode([payload], workflow('exchange-a'));
      expect(Object.keys(sealed!.metadata!).sort()).toEqual(['encoding', KEY_ID_METADATA].sort());
      // The earlier version opened every payload with empty additional data.
      const earlier = createSealer([oldKey]).openBytes('temporal-payload', 'old', sealed!.data!, '');
      expect(defaultPayloadConverter.fromPayload(temporal.api.common.v1.Payload.decode(earlier))).toEqual({
        answer: SECRET,
      });
      // It reads bound payloads, checking their binding.
      const [bound] = await codec.encode([payload], workflow('exchange-a'));
      expect(await opened(rollingOut.decode([bound!], workflow('exchange-a')))).toEqual({ answer: SECRET });
      expect(await failureOf(() => rollingOut.decode([bound!], workflow('exchange-b')))).toBe('bound-elsewhere');
    });
  });
});
