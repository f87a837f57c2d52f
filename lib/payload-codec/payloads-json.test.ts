// Pins the remote codec protocol's body: proto3 JSON of Payloads, both ways, and refusals that name the field.
import { defaultPayloadConverter } from '@temporalio/common';
import { payloadsFromJson, payloadsToJson, PayloadsJsonError } from './payloads-json';

describe('payloads as proto3 JSON', () => {
  it('writes every bytes field as base64 and reads it back', () => {
    const payloads = [defaultPayloadConverter.toPayload({ x: 'é' }), defaultPayloadConverter.toPayload(undefined)];
    const json = payloadsToJson(payloads);
    expect(json).toEqual({
      payloads: [
        {
          metadata: { encoding: Buffer.from('json/plain').toString('base64') },
          data: Buffer.from('{"x":"é"}').toString('base64'),
        },
        { metadata: { encoding: Buffer.from('binary/null').toString('base64') } },
      ],
    });
    const read = payloadsFromJson(JSON.parse(JSON.stringify(json)));
    expect(read.map((p) => defaultPayloadConverter.fromPayload(p))).toEqual([{ x: 'é' }, undefined]);
  });

  it('reads URL-safe base64 and an absent list (none)', () => {
    const [payload] = payloadsFromJson({
      payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg' }, data: 'eyJ4Ijoi_yJ9' }],
    });
    expect(Buffer.from(payload!.metadata!.encoding!).toString()).toBe('json/plain');
    expect(payloadsFromJson({})).toEqual([]);
    expect(payloadsToJson([])).toEqual({ payloads: [] });
  });

  it.each([
    [[], 'body'],
    ['payloads', 'body'],
    [{ payloads: {} }, 'payloads'],
    [{ payloads: [1] }, 'payloads[0]'],
    [{ payloads: [{ metadata: [] }] }, 'payloads[0].metadata'],
    [{ payloads: [{ metadata: { encoding: 5 } }] }, 'payloads[0].metadata.encoding'],
    [{ payloads: [{}, { data: 'not base64!' }] }, 'payloads[1].data'],
  ])('refuses %j naming %s', (body, path) => {
    let caught: unknown;
    try {
      payloadsFromJson(body);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PayloadsJsonError);
    expect((caught as PayloadsJsonError).path).toBe(path);
  });
});
