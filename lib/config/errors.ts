/** A variable the service cannot start with: the message names it and why. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
