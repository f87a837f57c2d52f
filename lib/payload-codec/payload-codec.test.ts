// Pins the payload codec: round trip, nothing readable in what it seals, tamper and unknown key
// refusals, key rotation, and the plaintext switch.
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { createPayloadCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA, PayloadCodecError } from './payload-codec';

const oldKey = { kid: 'old', key: randomBytes(32) };
const newKey = { kid: 'new', key: randomBytes(32) };
const SECRET = 'correct horse battery staple';
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
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false });
    const [encoded] = await codec.encode([payload]);
    const [decoded] = await codec.decode([encoded!]);
    expect(text(decoded!.metadata!.encoding)).toBe('json/plain');
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ answer: SECRET, n: 1 });
  });

  it('keeps several payloads apart and in order, the empty list included', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false });
    const values = ['a', { b: 2 }, null, undefined, new Uint8Array([1, 2, 3])];
    const decoded = await codec.decode(await codec.encode(values.map((v) => defaultPayloadConverter.toPayload(v))));
    expect(decoded.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual(values);
    expect(await codec.encode([])).toEqual([]);
  });

  it('seals into binary/encrypted under the first key, with nothing of the value readable', async () => {
    const codec = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: false });
    const [encoded] = await codec.encode([payload]);
    expect(Object.keys(encoded!.metadata!).sort()).toEqual(['encoding', KEY_ID_METADATA].sort());
    expect(text(encoded!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(encoded!.metadata![KEY_ID_METADATA])).toBe('new');
    expect(text(encoded!.data)).not.toContain(SECRET);
    expect(text(encoded!.data)).not.toContain('json/plain');
  });

  it('seals the same payload differently each time (a fresh IV)', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false });
    const [a, b] = await codec.encode([payload, payload]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it.each([0, 12, 20, -1])('refuses a sealed payload with byte %i changed as an authentication failure', async (at) => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true });
    const [encoded] = await codec.encode([payload]);
    const data = Buffer.from(encoded!.data!);
    const index = at < 0 ? data.length + at : at;
    data[index] = data[index]! ^ 0x01;
    expect(await failureOf(() => codec.decode([{ ...encoded!, data }]))).toBe('authentication');
  });

  it('refuses a sealed payload whose key id was swapped for another key of the ring', async () => {
    const codec = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: true });
    const [encoded] = await codec.encode([payload]);
    const swapped: Payload = { ...encoded!, metadata: { ...encoded!.metadata, [KEY_ID_METADATA]: Buffer.from('old') } };
    expect(await failureOf(() => codec.decode([swapped]))).toBe('authentication');
  });

  it('refuses a payload sealed under a key id the ring does not hold, naming the key id', async () => {
    const [sealed] = await createPayloadCodec({ keys: [oldKey], acceptPlaintext: false }).encode([payload]);
    const codec = createPayloadCodec({ keys: [newKey], acceptPlaintext: true });
    await expect(codec.decode([sealed!])).rejects.toThrow(/key id "old", which PAYLOAD_CODEC_KEYS does not hold/);
    expect(await failureOf(() => codec.decode([sealed!]))).toBe('unknown-key');
  });

  it('refuses a key of the same id but different bytes as an authentication failure', async () => {
    const [sealed] = await createPayloadCodec({ keys: [oldKey], acceptPlaintext: false }).encode([payload]);
    const impostor = createPayloadCodec({ keys: [{ kid: 'old', key: randomBytes(32) }], acceptPlaintext: false });
    expect(await failureOf(() => impostor.decode([sealed!]))).toBe('authentication');
  });

  it('refuses an encrypted payload without a key id, or too short to hold one', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true });
    const encoding = Buffer.from(ENCRYPTED_ENCODING);
    expect(await failureOf(() => codec.decode([{ metadata: { encoding }, data: randomBytes(64) }]))).toBe('malformed');
    const short = { metadata: { encoding, [KEY_ID_METADATA]: Buffer.from('old') }, data: randomBytes(20) };
    expect(await failureOf(() => codec.decode([short]))).toBe('malformed');
  });

  it('opens what an older key sealed after a new key is prepended, and seals new payloads under the new one', async () => {
    const before = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false });
    const after = createPayloadCodec({ keys: [newKey, oldKey], acceptPlaintext: false });
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
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: true });
    expect(await codec.decode([payload])).toEqual([payload]);
  });

  it('refuses a payload that is not encrypted once plaintext is no longer accepted, saying which switch', async () => {
    const codec = createPayloadCodec({ keys: [oldKey], acceptPlaintext: false });
    await expect(codec.decode([payload])).rejects.toThrow(/PAYLOAD_CODEC_ACCEPT_PLAINTEXT is false/);
    expect(await failureOf(() => codec.decode([payload]))).toBe('plaintext-refused');
  });
});
