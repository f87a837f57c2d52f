/** The service's configuration: every variable declared once (schema.ts), parsed and grouped (config.ts). */
export {
  evidenceKeysOf,
  parseConfig,
  type Config,
  type Limits,
  type TokenGuessLimit,
  type WorkerVersioningConfig,
} from './config';
export { ConfigError } from './errors';
export { checkApiExposure } from './api-exposure';
export { parseKeyRing } from './key-ring';
export { loadConfigOrExit } from './load';
export {
  API_ONLY_SECRETS,
  API_REQUIRED_SECRETS,
  SHARED_SECRETS,
  WORKER_ONLY_SECRETS,
  secretsOf,
  type ProcessRole,
} from './process-role';
export { parseTrustProxy, type TrustProxy } from './variables/trust-proxy';
export { CONFIG_VARIABLES, defaultValueOf, EnvSchema, type Env } from './schema';
export { BUILT_IN_HANDLER_SETS, type BuiltInHandlerSetName } from './variables/exchanges';
export { UNBOUND_PAYLOADS, type UnboundPayloads } from './variables/temporal';
