/**
 * What a sealed payload is bound to: the namespace, workflow and role the Temporal SDK names when it
 * converts it (its serialization context), as the codec records it beside the ciphertext and seals
 * under it, and the check that a payload being decoded belongs where it is read.
 */
import type { SerializationContext } from '@temporalio/common';
import type { NamespaceOnlyPayloads } from '../config/variables/temporal';

/**
 * What a sealed payload belongs to. `namespace` always; the rest as far as the SDK's context on
 * encoding said: the workflow, whether the payload is the workflow's own or an activity's, and
 * which activity.
 */
export interface PayloadBinding {
  namespace: string;
  workflowId?: string;
  role?: PayloadRole;
  activityId?: string;
}

export type PayloadRole = 'workflow' | 'activity' | 'local-activity';

const ROLES: ReadonlyArray<PayloadRole> = ['workflow', 'activity', 'local-activity'];

/** What a payload converted under `context` is bound to; without one, the codec's namespace alone. */
export function bindingFor(context: SerializationContext | undefined, namespace: string): PayloadBinding {
  if (!context) return { namespace };
  if (context.type === 'workflow')
    return { namespace: context.namespace, workflowId: context.workflowId, role: 'workflow' };
  return {
    namespace: context.namespace,
    ...(context.workflowId ? { workflowId: context.workflowId } : {}),
    role: context.isLocal ? 'local-activity' : 'activity',
    ...(context.activityId ? { activityId: context.activityId } : {}),
  };
}

/** The binding as recorded and authenticated: JSON with its keys in one order, absent ones left out. */
export function bindingText(binding: PayloadBinding): string {
  const { namespace, workflowId, role, activityId } = binding;
  return JSON.stringify({ namespace, workflowId, role, activityId });
}

/** The recorded binding, or undefined when it is not one (only a payload this codec did not write). */
export function parseBinding(recorded: string): PayloadBinding | undefined {
  let value: unknown;
  try {
    value = JSON.parse(recorded);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { namespace, workflowId, role, activityId, ...rest } = value as Record<string, unknown>;
  const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
  if (Object.keys(rest).length > 0 || typeof namespace !== 'string') return undefined;
  if (!optionalString(workflowId) || !optionalString(activityId)) return undefined;
  if (role !== undefined && !ROLES.includes(role as PayloadRole)) return undefined;
  return value as PayloadBinding;
}

/**
 * Why a payload bound to `recorded` does not belong where it is decoded, or undefined when it does.
 * With the SDK's context (`expected`), every part the payload was bound to must be the context's.
 * A payload bound to the namespace only (sealed without a context: what `/codec/encode` mints, a
 * workflow task's failure) is refused where a workflow's own is expected, unless `namespaceOnly`
 * is `accept` (PAYLOAD_CODEC_NAMESPACE_ONLY): it names no workflow, so any workflow would take it.
 * Without a context, only the namespace is known, and checked.
 */
export function misbinding(
  recorded: PayloadBinding,
  namespace: string,
  expected?: PayloadBinding,
  namespaceOnly: NamespaceOnlyPayloads = 'refuse',
): string | undefined {
  if (
    expected?.workflowId !== undefined &&
    recorded.workflowId === undefined &&
    recorded.namespace === expected.namespace &&
    namespaceOnly === 'refuse'
  )
    return `it is bound to the namespace only and names no workflow, where workflow "${expected.workflowId}"'s own is expected (PAYLOAD_CODEC_NAMESPACE_ONLY is refuse)`;
  const parts = [
    ['namespace', recorded.namespace, expected ? expected.namespace : namespace],
    ['workflow', recorded.workflowId, expected?.workflowId],
    ['role', recorded.role, expected?.role],
    ['activity', recorded.activityId, expected?.activityId],
  ] as const;
  for (const [part, bound, here] of parts) {
    if (bound === undefined || bound === here || (!expected && part !== 'namespace')) continue;
    return `it is bound to ${part} "${bound}", ${here === undefined ? 'and is decoded for none' : `not "${here}"`}`;
  }
  return undefined;
}
