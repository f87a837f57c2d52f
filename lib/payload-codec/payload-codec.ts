/**
 * The payload codec: every payload the service puts into Temporal is sealed whole (its metadata and
 * its data, as a `temporal.api.common.v1.Payload`) with AES-256-GCM under PAYLOAD_CODEC_KEYS, so
 * Temporal's history holds ciphertext. The first key of the ring seals, every key opens.
 *
 * Each payload is also bound to the namespace, workflow, role and activity the SDK's serialization
 * context names (`encryption-bound-to`, sealed as additional data), so a ciphertext copied into
 * another exchange's history is refused instead of acted on. Payloads from before binding, in clear,
 * or bound to the namespace alone are refused unless their setting says otherwise. What each path
 * binds, and why each setting defaults as it does: docs/security.md, "Payloads in Temporal".
 * A refusal names why (and, for a binding, the two workflows or namespaces), never what it holds.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { NamespaceOnlyPayloads, UnboundPayloads } from '../config/variables/temporal';
import { createSealer, SealError, type KeyRingEntry, type SealFailure } from '../state/sealer';
import { bindingFor, bindingText, misbinding, parseBinding, type PayloadBinding } from './payload-binding';

export { bindingFor, type PayloadBinding, type PayloadRole } from './payload-binding';

/** What the codec is built from: PAYLOAD_CODEC_KEYS, PAYLOAD_CODEC_ACCEPT_PLAINTEXT, PAYLOAD_CODEC_UNBOUND, TEMPORAL_NAMESPACE. */
export interface PayloadCodecConfig {
  /** The key ring: the first encrypts, every key decrypts. */
  keys: ReadonlyArray<KeyRingEntry>;
  acceptPlaintext: boolean;
  /** Payloads encrypted before they were bound; unset, `refuse`. */
  unbound?: UnboundPayloads;
  /** Payloads bound to the namespace only, where a workflow's own are expected; unset, `refuse`. */
  namespaceOnly?: NamespaceOnlyPayloads;
  /** What a payload is bound to, and checked against, when the SDK names no context. */
  namespace: string;
}

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
/** What a sealed payload is bound to (JSON of a `PayloadBinding`), authenticated with it. */
export const BINDING_METADATA = 'encryption-bound-to';

/** Why a payload was refused on decode. */
export type PayloadCodecFailure = SealFailure | 'plaintext-refused' | 'unbound-refused' | 'bound-elsewhere';

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
  const unbound = config.unbound ?? 'refuse';

  const encodeOne = (payload: Payload, binding: PayloadBinding): Payload => {
    const plaintext = ProtoPayload.encode(payload).finish();
    if (unbound === 'write') {
      const { kid, sealed } = sealer.sealBytes('temporal-payload', plaintext, '');
      return {
        metadata: { encoding: encoder.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: encoder.encode(kid) },
        data: sealed,
      };
    }
    const boundTo = bindingText(binding);
    const { kid, sealed } = sealer.sealBytes('temporal-payload', plaintext, boundTo);
    return {
      metadata: {
        encoding: encoder.encode(ENCRYPTED_ENCODING),
        [KEY_ID_METADATA]: encoder.encode(kid),
        [BINDING_METADATA]: encoder.encode(boundTo),
      },
      data: sealed,
    };
  };

  /** `expected`: what the SDK's context says the payload belongs to; undefined without a context. */
  const decodeOne = (payload: Payload, expected: PayloadBinding | undefined): Payload => {
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
    const boundTo = text(payload.metadata?.[BINDING_METADATA]);
    if (boundTo === undefined && unbound === 'refuse')
      throw new PayloadCodecError(
        'unbound-refused',
        'an encrypted payload was refused: it was sealed before payloads were bound to their workflow ' +
          '(PAYLOAD_CODEC_UNBOUND is refuse; set it to accept only while exchanges started before the upgrade run)',
      );
    let opened: Buffer;
    try {
      opened = sealer.openBytes('temporal-payload', kid, payload.data ?? new Uint8Array(), boundTo ?? '');
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      const why: Record<SealFailure, string> = {
        'unknown-key': `it was encrypted under key id "${kid}", which PAYLOAD_CODEC_KEYS does not hold`,
        authentication: `it does not authenticate under key id "${kid}" (altered, or a different key of that id)`,
        malformed: 'it is too short to be one',
      };
      throw new PayloadCodecError(error.reason, `an encrypted payload was refused: ${why[error.reason]}`);
    }
    if (boundTo !== undefined) {
      // Authenticated above: what it says is what the payload was sealed for.
      const recorded = parseBinding(boundTo);
      if (!recorded)
        throw new PayloadCodecError('malformed', `an encrypted payload has an unreadable ${BINDING_METADATA}`);
      const wrong = misbinding(recorded, config.namespace, expected, config.namespaceOnly);
      if (wrong) throw new PayloadCodecError('bound-elsewhere', `an encrypted payload was refused: ${wrong}`);
    }
    try {
      return ProtoPayload.toObject(ProtoPayload.decode(opened)) as Payload;
    } catch {
      throw new PayloadCodecError('malformed', 'an encrypted payload does not hold a payload');
    }
  };

  return {
    async encode(payloads, context) {
      const binding = bindingFor(context, config.namespace);
      return payloads.map((payload) => encodeOne(payload, binding));
    },
    async decode(payloads, context) {
      const expected = context ? bindingFor(context, config.namespace) : undefined;
      return payloads.map((payload) => decodeOne(payload, expected));
    },
  };
}
