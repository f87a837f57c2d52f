/**
 * The JSON-RPC codes of the errors that end an exchange, below everything that says or decides
 * something with them (the wire's error builders, an exchange's status). They sit in the
 * implementation-defined range the 2026-07-28 revision leaves to servers (-32000..-32019); -32001
 * is the code clients already know as "request timed out".
 */
export const EXCHANGE_EXPIRED = -32001;
export const ROUND_CAP_EXCEEDED = -32011;
export const EXCHANGE_CANCELLED = -32012;
/** Temporal ended the exchange's workflow without it recording an outcome (terminate, timeout, reset, retention). */
export const EXCHANGE_TERMINATED = -32013;
