/**
 * `durable-mcp check --quotas <file>`: reads a QUOTAS_FILE as the service reads it when it starts
 * (every field, by its path; a rule per tenant against this environment's TENANT_CLAIM and
 * AUTH_MODE), without touching Postgres: for an operator's CI before a deploy.
 */
import { readQuotaFile } from '../lib/config/quotas';
import { QuotaDeclarationError, tenantRuleProblem, type QuotaRule } from '../lib/quotas/quota-rules';
import { EXIT_INVALID_MODULE } from './check-command';

/** A rule in one line: `writes: per principal, tools delete_*, deploy (each apart), 5 per minute, 100 per day`. */
function described(rule: QuotaRule): string {
  const tools = rule.tools ? `, tools ${rule.tools.join(', ')}${rule.eachTool ? ' (each apart)' : ''}` : '';
  const limits = Object.entries(rule.limits).map(([window, calls]) => `${calls} per ${window}`);
  return `${rule.name}: per ${rule.per}${tools}, ${limits.join(', ')}`;
}

export function checkQuotasCommand(
  file: string,
  out: NodeJS.WritableStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  try {
    const rules = readQuotaFile(file, file);
    const problem = tenantRuleProblem(rules, env.TENANT_CLAIM || undefined, env.AUTH_MODE ?? 'off');
    if (problem) throw new QuotaDeclarationError(`${file}: ${problem}`);
    out.write(`${file}: ${rules.length} quota${rules.length === 1 ? '' : 's'}, all valid\n`);
    for (const rule of rules) out.write(`  ${described(rule)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof QuotaDeclarationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return EXIT_INVALID_MODULE;
  }
}
