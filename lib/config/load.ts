/** The process's configuration, or an exit that names what is wrong. */
import { parseConfig, type Config } from './config';
import { checkApiExposure } from './api-exposure';
import type { ProcessRole } from './process-role';

/**
 * Reads the process environment as `role` reads it (parseConfig: a secret only the other process
 * uses is not required); on a bad value prints the reason and exits. A process that
 * serves the API (`role` `api` or `all`) also has its exposure checked (checkApiExposure).
 */
export function loadConfigOrExit(role?: ProcessRole): Config {
  try {
    const config = parseConfig(process.env, role);
    if (role === 'api' || role === 'all') checkApiExposure(config);
    return config;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(78); // EX_CONFIG
  }
}
