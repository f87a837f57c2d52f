/**
 * The payload codec: every payload the service puts into Temporal (workflow input, signals,
 * activity inputs and results, local ones included, memo, summaries, details and current details,
 * and the encoded attributes of failures) is sealed with AES-256-GCM under PAYLOAD_CODEC_KEYS
 * before it leaves the process, so Temporal's event history holds ciphertext.
 *
 * The whole original payload (its metadata, such as `encoding: json/plain`, and its data) is
 * serialized as a `temporal.api.common.v1.Payload` and sealed by `lib/state/sealer.ts` under its own
 * purpose; the sealed payload says `encoding: binary/encrypted` and names the key id that sealed it
 * (`encryption-key-id`). The first key of the ring seals, every key opens: rotate by prepending.
 *
 * A payload that is not `binary/encrypted` is refused, unless `acceptPlaintext` holds
 * (PAYLOAD_CODEC_ACCEPT_PLAINTEXT, off by default: only while upgrading a deployment whose
 * histories were recorded before the codec was on); then it is returned as it is.
 * A sealed payload that does not open (unknown key id, altered bytes) is always refused: the
 * `PayloadCodecError` names why, never what the payload holds.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { PayloadCodecConfig } from '../config';
import { createSealer, SealError, type SealFailure } from '../state/sealer';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';

/** Why a payload was refused on decode. */
export type PayloadCodecFailure = SealFailure | 'plaintext-refused';

export class PayloadCodecError extends Error {
  override readonly name = 'PayloadCodecError';
  constructor(
    readonly reason: PayloadCodecFailure,
    message: string,
  ) {
    super(message);
  }
}

const ProtoPayload = temporal.api.common.v1.Payload;
const utf8 = new TextDecoder();
const text = (value: Uint8Array | null | undefined) => (value ? utf8.decode(value) : undefined);

/** Whether `payload` says it is sealed by this codec (or one like it). */
export function isEncrypted(payload: Payload): boolean {
  return text(payload.metadata?.encoding) === ENCRYPTED_ENCODING;
}

export function createPayloadCodec(config: PayloadCodecConfig): PayloadCodec {
  const sealer = createSealer(config.keys);
  const encoder = new TextEncoder();

  const encodeOne = (payload: Payload): Payload => {
    const { kid, sealed } = sealer.sealBytes('temporal-payload', ProtoPayload.encode(payload).finish(), '');
    return {
      metadata: { encoding: encoder.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: encoder.encode(kid) },
      data: sealed,
    };
  };

  const decodeOne = (payload: Payload): Payload => {
    if (!isEncrypted(payload)) {
      if (config.acceptPlaintext) return payload;
      throw new PayloadCodecError(
        'plaintext-refused',
        'a payload that is not encrypted was refused (PAYLOAD_CODEC_ACCEPT_PLAINTEXT is false; set it true only ' +
          'while upgrading a deployment that ran before payloads were encrypted)',
      );
    }
    const kid = text(payload.metadata?.[KEY_ID_METADATA]);
    if (!kid) throw new PayloadCodecError('malformed', `an encrypted payload names no ${KEY_ID_METADATA}`);
    let opened: Buffer;
    try {
      opened = sealer.openBytes('temporal-payload', kid, payload.data ?? new Uint8Array(), '');
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      const why: Record<SealFailure, string> = {
        'unknown-key': `it was encrypted under key id "${kid}", which PAYLOAD_CODEC_KEYS does not hold`,
        authentication: `it does not authenticate under key id "${kid}" (altered, or a different key of that id)`,
        malformed: 'it is too short to be one',
      };
      throw new PayloadCodecError(error.reason, `an encrypted payload was refused: ${why[error.reason]}`);
    }
    try {
      return ProtoPayload.toObject(ProtoPayload.decode(opened)) as Payload;
    } catch {
      throw new PayloadCodecError('malformed', 'an encrypted payload does not hold a payload');
    }
  };

  return {
    async encode(payloads) {
      return payloads.map(encodeOne);
    },
    async decode(payloads) {
      return payloads.map(decodeOne);
    },
  };
}
