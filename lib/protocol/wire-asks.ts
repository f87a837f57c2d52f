/**
 * Embedded requests as the 2026-07-28 wire sends them. The spec makes an embedded request's
 * `params` optional, and a handler may record one without (`inputRequired.listRoots()` is
 * `{ method: 'roots/list' }`); strict decoders (the Go SDK's) cannot read an embedded request
 * without `params`, so each is sent with `params: {}` then. Only the wire changes: what the
 * handler asked is stored as it asked it (answers are carried, not interpreted). So does a
 * state-only result (`stateOnlyResult`).
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A state-only result: nothing to answer, come back with `requestState`. Its `inputRequests: {}`
 * keeps it an ask for clients that take a result without `inputRequests` as final (the Go SDK's,
 * whose caller would get an empty result); every other client reads it as state-only. The API's
 * legs and the dev stack's front door both send it so.
 */
export function stateOnlyResult(requestState: string): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: {}, requestState };
}

/** `inputRequests` with every embedded request that lacks `params` given `params: {}`; others unchanged. */
export function wireInputRequests(inputRequests: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(inputRequests).map(([key, request]) => [
      key,
      isPlainObject(request) && request.params === undefined ? { ...request, params: {} } : request,
    ]),
  );
}
