/**
 * The quota rules a process's configuration declares: the environment's (QUOTA_CALLS_PER_*) and
 * QUOTAS_FILE's, together. A file that cannot be read or declares something invalid, or a rule per
 * tenant where no tenant can be read, stops the start, its message naming the file and each field
 * at fault.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './errors';
import {
  parseQuotaFile,
  QuotaDeclarationError,
  quotaRulesOfEnv,
  tenantRuleProblem,
  type QuotaEnv,
  type QuotaRule,
} from '../quotas/quota-rules';

interface QuotaConfigEnv extends QuotaEnv {
  QUOTAS_FILE?: string;
  TENANT_CLAIM?: string;
  AUTH_MODE: string;
}

/** The rules of `file` (QUOTAS_FILE), read as the service reads them. */
export function readQuotaFile(file: string, origin = `QUOTAS_FILE ${file}`): QuotaRule[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new QuotaDeclarationError(`${origin} cannot be read: ${(error as Error).message}`);
  }
  return parseQuotaFile(text, origin);
}

export function quotaRulesOf(env: QuotaConfigEnv): QuotaRule[] {
  try {
    const rules = [...quotaRulesOfEnv(env), ...(env.QUOTAS_FILE !== undefined ? readQuotaFile(env.QUOTAS_FILE) : [])];
    const problem = tenantRuleProblem(rules, env.TENANT_CLAIM, env.AUTH_MODE);
    if (problem) throw new QuotaDeclarationError(problem);
    return rules;
  } catch (error) {
    if (error instanceof QuotaDeclarationError) throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
}
