/**
 * A development requestState key, made once and kept in the stack's data folder so restarts can
 * still open earlier requestStates. Loudly not for production: there, REQUEST_STATE_KEYS is set.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/log';

export function devKeyRing(dataDir: string, log: Logger): string {
  const file = path.join(dataDir, 'dev-request-state-key');
  if (!existsSync(file)) writeFileSync(file, `dev:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  log.warn(
    { file },
    'REQUEST_STATE_KEYS is not set: using a DEVELOPMENT key from the data folder. Never run production like this; set REQUEST_STATE_KEYS.',
  );
  return readFileSync(file, 'utf8').trim();
}
