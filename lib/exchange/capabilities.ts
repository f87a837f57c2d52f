/**
 * The capability rule (MCP 2026-07-28, basic/patterns/mrtr): a server MUST NOT send an embedded
 * request the client has not declared support for. Lists every capability an ask needs that the
 * client lacks, so one error can name them all.
 */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function missingCapabilities(
  inputRequests: Record<string, unknown>,
  declared: Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  const missing: Record<string, Record<string, unknown>> = {};
  for (const request of Object.values(inputRequests)) {
    const method = (request as { method?: unknown }).method;
    const params = ((request as { params?: Record<string, unknown> }).params ?? {}) as Record<string, unknown>;
    if (method === 'elicitation/create') {
      const elicitation = isObject(declared.elicitation) ? declared.elicitation : undefined;
      const mode = params.mode === 'url' ? 'url' : 'form';
      // `elicitation: {}` declares form mode only; url mode must be named.
      const supported =
        elicitation !== undefined &&
        (mode === 'url' ? 'url' in elicitation : 'form' in elicitation || Object.keys(elicitation).length === 0);
      if (!supported) missing.elicitation = { ...(missing.elicitation ?? {}), [mode]: {} };
    } else if (method === 'sampling/createMessage') {
      if (!isObject(declared.sampling)) missing.sampling = {};
    } else if (method === 'roots/list') {
      if (!isObject(declared.roots)) missing.roots = {};
    }
  }
  return missing;
}
