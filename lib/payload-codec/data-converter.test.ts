// Pins the service's data converter: values and failures both come back through it, and neither
// a value nor a failure's message is readable in what it hands Temporal.
import { randomBytes } from 'node:crypto';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { serviceDataConverter } from './data-converter';

const SECRET = 'the answer is 42, said Deep Thought';
const codecConfig = { keys: [{ kid: 'k1', key: randomBytes(32) }], acceptPlaintext: false, namespace: 'ns' };
const visible = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v));

describe('the service data converter', () => {
  const converter = loadDataConverter(serviceDataConverter(codecConfig));
  const [codec] = converter.payloadCodecs;

  it('encrypts a value and reads it back', async () => {
    const [encoded] = await codec!.encode([converter.payloadConverter.toPayload({ answer: SECRET })]);
    expect(visible(encoded)).not.toContain(SECRET);
    const [decoded] = await codec!.decode([encoded!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual({ answer: SECRET });
  });

  it("keeps a failure's message and stack in an encoded attribute the codec encrypts, and reads them back", async () => {
    const failure = converter.failureConverter.errorToFailure(
      ApplicationFailure.create({ message: SECRET, type: 'Oops', nonRetryable: true }),
      converter.payloadConverter,
    );
    expect(failure.message).toBe('Encoded failure');
    expect(failure.stackTrace).toBe('');
    expect(failure.applicationFailureInfo?.type).toBe('Oops');
    const [sealed] = await codec!.encode([failure.encodedAttributes!]);
    expect(visible({ ...failure, encodedAttributes: sealed })).not.toContain(SECRET);
    const [opened] = await codec!.decode([sealed!]);
    const error = converter.failureConverter.failureToError(
      { ...failure, encodedAttributes: opened },
      converter.payloadConverter,
    );
    expect(error.message).toBe(SECRET);
  });
});
