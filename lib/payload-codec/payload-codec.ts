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
 * **Integrity, not only secrecy: each payload is bound to what it belongs to.** The SDK tells the
 * codec whose payload it converts (a `SerializationContext`); the codec records that binding in the
 * payload's metadata (`encryption-bound-to`, JSON: `namespace`, `workflowId`, `role`, `activityId`)
 * and seals under it as additional data, so the record cannot be altered or removed without the
 * payload failing to open. Decoding with a context refuses a payload bound elsewhere
 * (`bound-elsewhere`): a ciphertext copied from one exchange's history into another's (a signal
 * replayed into someone else's elicitation, an activity result into another round) or from another
 * namespace served with the same keys is refused instead of acted on. What each path binds, as
 * `@temporalio/{client,worker}` 1.24 call the codec:
 *
 * - `role: workflow` with the workflow id: the workflow's input, memo, summary and details as the
 *   client starts it; signals, queries and updates and their results; the workflow's result and
 *   failure (the client encodes and decodes with the target workflow's context, the worker's
 *   activation and completion with the workflow's own).
 * - `role: activity` / `local-activity` with the workflow id and the activity id: an activity's
 *   input (encoded by the workflow's completion with the scheduled activity's context, decoded by
 *   the activity worker with the task's), its result, failure and heartbeat details (encoded by the
 *   activity worker with that context, decoded in the workflow's activation with the context
 *   recorded when it scheduled the activity; a local round's result is in its marker and reads the
 *   same way on replay), and an activity's or local activity's summary. Both sides name the same
 *   namespace, workflow id, activity id (`${seq}`) and kind, so all four are bound.
 * - Namespace only, when the SDK gives no context: the failure of a workflow task the worker could
 *   not run, and what `/codec/encode` mints without `X-Workflow-Id` (the Temporal UI and CLI name
 *   only the namespace). It names no workflow, so where a workflow's own payload is expected (a
 *   worker's decode, which always has a context) it is refused (`bound-elsewhere`), unless
 *   PAYLOAD_CODEC_NAMESPACE_ONLY is `accept`; decoded without a context (the codec endpoint, a
 *   history read by a script) it opens.
 *
 * Nothing sealed crosses from one context into another: what does (an activity's failure the
 * workflow fails with) is decoded in the activation and encoded again in the completion, under the
 * workflow's context. Not bound: the run id (a reset, a retry or a continue-as-new is a new run of
 * the same workflow and carries its input and signals over) and the signal, query or update name
 * (the SDK does not name it): within one workflow and role, a payload can stand for another.
 *
 * Decoding without a context (the codec endpoint, a script reading a history; also the SDK's
 * resolution of an activity whose scheduling context it no longer holds) checks the namespace
 * alone: the codec serves one (`namespace`, TEMPORAL_NAMESPACE). A replay worker decodes as
 * namespace `default` and as the workflow id it is given, so replaying a history recorded since
 * payloads are bound needs that history's workflow id (`Worker.runReplayHistory`'s third argument).
 *
 * Payloads sealed before binding (no `encryption-bound-to`, sealed with empty additional data) are
 * refused unless `unbound` says otherwise (PAYLOAD_CODEC_UNBOUND, `refuse` by default): `accept`
 * reads them (while exchanges from before the upgrade run: an attacker who copies one of them from
 * any history into another exchange has it accepted meanwhile, which is why it is not the default),
 * and `write` also writes them (the first step of a rollout while workers of the earlier version,
 * which cannot open a bound payload, still run exchanges).
 *
 * A payload that is not `binary/encrypted` is refused, unless `acceptPlaintext` holds
 * (PAYLOAD_CODEC_ACCEPT_PLAINTEXT, off by default: only while upgrading a deployment whose
 * histories were recorded before the codec was on); then it is returned as it is.
 * A sealed payload that does not open (unknown key id, altered bytes, altered binding) is always
 * refused: the `PayloadCodecError` names why (and, for a binding, the two workflows or namespaces),
 * never what the payload holds.
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
