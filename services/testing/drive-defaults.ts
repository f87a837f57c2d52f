/**
 * The service's own defaults, read from its configuration's declarations, that a drive applies
 * where a test sets nothing: the round timeout, the round cap, the requestState TTL and the bounds
 * on a handler's time.
 */
import { CONFIG_VARIABLES } from '../../lib/config';

const defaultOf = (name: string): number => Number(CONFIG_VARIABLES.find((v) => v.name === name)?.default);
/** The service's defaults (lib/config.ts). */
export const DEFAULT_ROUND_TIMEOUT_MS = defaultOf('ROUND_TIMEOUT_MS');
export const DEFAULT_MAX_ROUNDS = defaultOf('MAX_ROUNDS');
export const REQUEST_STATE_TTL_MS = defaultOf('REQUEST_STATE_TTL_MS');
export const LOCAL_HANDLER_TIMEOUT_MS = defaultOf('LOCAL_HANDLER_TIMEOUT_MS');
export const HANDLER_TIMEOUT_MS = defaultOf('HANDLER_TIMEOUT_MS');
