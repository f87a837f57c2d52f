/**
 * Payloads as Temporal's remote codec protocol carries them: the proto3 JSON of
 * `temporal.api.common.v1.Payloads` (`{"payloads":[{"metadata":{"encoding":"<base64>"},"data":"<base64>"}]}`,
 * every bytes field base64), what the Temporal Web UI and CLI send to a codec server's
 * `/decode` and `/encode` and read back.
 *
 * Reading checks the shape first, so a body of the wrong shape is refused naming the field at
 * fault instead of being half-read.
 */
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

const ProtoPayloads = temporal.api.common.v1.Payloads;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A body that is not the proto3 JSON of Payloads; `path` names the field at fault. */
export class PayloadsJsonError extends Error {
  override readonly name = 'PayloadsJsonError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkBase64(value: unknown, path: string): void {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new PayloadsJsonError(path, 'must be a base64 string');
}

/** The payloads of a `{ "payloads": [...] }` body; an absent list is none (proto3 JSON omits empty lists). */
export function payloadsFromJson(body: unknown): Payload[] {
  if (!isObject(body)) throw new PayloadsJsonError('body', 'must be a JSON object with a payloads list');
  if (body.payloads === undefined) return [];
  if (!Array.isArray(body.payloads)) throw new PayloadsJsonError('payloads', 'must be a list');
  body.payloads.forEach((payload: unknown, i) => {
    const at = `payloads[${i}]`;
    if (!isObject(payload)) throw new PayloadsJsonError(at, 'must be an object');
    if (payload.metadata !== undefined) {
      if (!isObject(payload.metadata)) throw new PayloadsJsonError(`${at}.metadata`, 'must be an object');
      for (const [key, value] of Object.entries(payload.metadata)) checkBase64(value, `${at}.metadata.${key}`);
    }
    if (payload.data !== undefined) checkBase64(payload.data, `${at}.data`);
  });
  try {
    return ProtoPayloads.fromObject(body).payloads as Payload[];
  } catch (error) {
    throw new PayloadsJsonError('payloads', (error as Error).message);
  }
}

/** The `{ "payloads": [...] }` body for `payloads`. */
export function payloadsToJson(payloads: Payload[]): { payloads: unknown[] } {
  const json = ProtoPayloads.toObject(ProtoPayloads.fromObject({ payloads }), { bytes: String, longs: String });
  return { payloads: (json.payloads as unknown[] | undefined) ?? [] };
}
