/**
 * Who an exchange belongs to. Until the service authenticates callers, every caller of both eras
 * is this one principal; requestStates and sessions are already bound to it, so binding them to a
 * real subject later changes the value, not the checks.
 */
export const ANONYMOUS_PRINCIPAL = 'anonymous';
