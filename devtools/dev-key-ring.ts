/**
 * Development key rings (the requestState keys and the payload codec's), each made once and kept
 * in the stack's data folder, so restarts still open earlier requestStates and still read the
 * history Temporal keeps there. Loudly not for production: there, the variables are set.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/log';

export type DevKeyRingVariable = 'REQUEST_STATE_KEYS' | 'PAYLOAD_CODEC_KEYS';

const FILES: Record<DevKeyRingVariable, { file: string; kid: string }> = {
  REQUEST_STATE_KEYS: { file: 'dev-request-state-key', kid: 'dev' },
  PAYLOAD_CODEC_KEYS: { file: 'dev-payload-codec-key', kid: 'devcodec' },
};

export function devKeyRing(dataDir: string, log: Logger, variable: DevKeyRingVariable = 'REQUEST_STATE_KEYS'): string {
  const { file: name, kid } = FILES[variable];
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, `${kid}:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  log.warn(
    { file },
    `${variable} is not set: using a DEVELOPMENT key from the data folder. Never run production like this; set ${variable}.`,
  );
  return readFileSync(file, 'utf8').trim();
}

/** Both key rings: each from the environment when set there, else its development key. */
export function devKeyRings(dataDir: string, log: Logger, env: NodeJS.ProcessEnv = process.env) {
  return {
    REQUEST_STATE_KEYS: env.REQUEST_STATE_KEYS || devKeyRing(dataDir, log, 'REQUEST_STATE_KEYS'),
    PAYLOAD_CODEC_KEYS: env.PAYLOAD_CODEC_KEYS || devKeyRing(dataDir, log, 'PAYLOAD_CODEC_KEYS'),
  };
}
