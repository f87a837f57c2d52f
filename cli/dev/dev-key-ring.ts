/**
 * Development secrets: the key rings (the requestState keys, the payload codec's, the answer
 * page's cookie keys and the evidence log's signing key) and the admin token, each made once and
 * kept in the stack's data folder, so restarts still open earlier requestStates, still read the
 * history Temporal keeps there, keep the operator signed in to the codec endpoint and answerers
 * to the answer page, and sign one evidence log. Loudly not for production: there, the variables are set.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../lib/log';

/** The file in the data folder the development admin token is kept in (what `durable-mcp exchanges` reads). */
export const DEV_ADMIN_TOKEN_FILE = 'dev-admin-token';

export type DevSecretVariable =
  'REQUEST_STATE_KEYS' | 'PAYLOAD_CODEC_KEYS' | 'ANSWER_SESSION_KEYS' | 'EVIDENCE_SIGNING_KEYS' | 'ADMIN_TOKEN';

const SECRETS: Record<DevSecretVariable, { file: string; make: () => string }> = {
  REQUEST_STATE_KEYS: { file: 'dev-request-state-key', make: () => `dev:${randomBytes(32).toString('base64')}` },
  PAYLOAD_CODEC_KEYS: { file: 'dev-payload-codec-key', make: () => `devcodec:${randomBytes(32).toString('base64')}` },
  ANSWER_SESSION_KEYS: {
    file: 'dev-answer-session-key',
    make: () => `devanswers:${randomBytes(32).toString('base64')}`,
  },
  // An Ed25519 private key is any 32 random bytes.
  EVIDENCE_SIGNING_KEYS: {
    file: 'dev-evidence-signing-key',
    make: () => `devevidence:${randomBytes(32).toString('base64')}`,
  },
  ADMIN_TOKEN: { file: DEV_ADMIN_TOKEN_FILE, make: () => randomBytes(32).toString('hex') },
};

/** The development value of `variable`, from its file in `dataDir` (made on first use). */
export function devSecret(dataDir: string, log: Logger, variable: DevSecretVariable): string {
  const { file: name, make } = SECRETS[variable];
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  log.warn(
    { file },
    `${variable} is not set: using a DEVELOPMENT value from the data folder. Never run production like this; set ${variable}.`,
  );
  return readFileSync(file, 'utf8').trim();
}

/** The key rings: each from the environment when set there, else its development key. */
export function devKeyRings(dataDir: string, log: Logger, env: NodeJS.ProcessEnv = process.env) {
  return {
    REQUEST_STATE_KEYS: env.REQUEST_STATE_KEYS || devSecret(dataDir, log, 'REQUEST_STATE_KEYS'),
    PAYLOAD_CODEC_KEYS: env.PAYLOAD_CODEC_KEYS || devSecret(dataDir, log, 'PAYLOAD_CODEC_KEYS'),
    ANSWER_SESSION_KEYS: env.ANSWER_SESSION_KEYS || devSecret(dataDir, log, 'ANSWER_SESSION_KEYS'),
    EVIDENCE_SIGNING_KEYS: env.EVIDENCE_SIGNING_KEYS || devSecret(dataDir, log, 'EVIDENCE_SIGNING_KEYS'),
  };
}
