/**
 * The development stack of durable-mcp, as a package of its own so that a production install of
 * the service carries none of it: `durable-mcp dev` (and the TypeScript modules it serves) loads
 * it by name, and says how to install it when it is missing.
 */
export {
  embeddedPostgresBinary,
  startEmbeddedPostgres,
  type EmbeddedPostgresCluster,
  type EmbeddedPostgresOptions,
} from './embedded-postgres';
export {
  startDownloadedTemporal,
  type DownloadedTemporal,
  type DownloadedTemporalOptions,
} from './downloaded-temporal';
export { registerTypeScript } from './typescript-loader';
