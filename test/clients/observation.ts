/**
 * What a client under test did with one call, as every adapter reports it (TypeScript in process,
 * Python over its shim), and the short outcome strings of the compatibility table made from it.
 * The strings name what happened (a result, the error a client threw, by its class and code),
 * never what was hoped for, so a cell that changes is a client or the service that changed.
 */

export type Observation =
  | { kind: 'result'; text: string; isError: boolean; pendingHandle?: string }
  | { kind: 'error'; name: string; code?: string | number | null; message: string };

/** The handle of a pending result, wherever a client left it: its _meta, or the text an agent reads. */
export function pendingHandleIn(observation: Observation): string | undefined {
  if (observation.kind === 'result' && observation.pendingHandle) return observation.pendingHandle;
  const text = observation.kind === 'result' ? observation.text : observation.message;
  return /"handle":"([^"]+)"/.exec(text)?.[1];
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** A call's outcome: `result` when it is the one `expected`, else what it was. */
export function callOutcome(observation: Observation, expected: string): string {
  if (observation.kind === 'result') {
    if (observation.pendingHandle) return 'pending result';
    if (observation.isError && pendingHandleIn(observation)) return 'tool error with the pending text';
    if (observation.isError) return `tool error "${clip(observation.text)}"`;
    return observation.text === expected ? 'result' : `other result "${clip(observation.text)}"`;
  }
  const code = observation.code === undefined || observation.code === null ? '' : ` ${observation.code}`;
  const pending = pendingHandleIn(observation) ? ' with the pending text' : '';
  return `throws ${observation.name}${code}${pending}`;
}

/** Where the client's caller can read the pending result's handle. */
export function pendingOutcome(observation: Observation): string {
  if (observation.kind === 'result' && observation.pendingHandle) return 'isError result, handle in _meta and text';
  if (observation.kind === 'result' && observation.isError && pendingHandleIn(observation))
    return 'isError result, handle only in its text';
  if (observation.kind === 'error' && pendingHandleIn(observation))
    return `${observation.name}, handle only in its message`;
  return 'none';
}
