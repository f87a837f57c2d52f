/**
 * The quotas of calls an operator declares: how many new exchanges (first legs of `tools/call`,
 * `prompts/get`, `resources/read`, tasks included) one principal, or one tenant, may start per
 * minute, hour or day, for every call or for the tools a rule's patterns name. The simple case is
 * the environment's (QUOTA_CALLS_PER_*); per-tool, per-group and per-tenant rules are a JSON file's
 * (QUOTAS_FILE, `{ "quotas": [ ... ] }`), read strictly, each problem named by its field path.
 *
 * Pure: parsing and defaults only (which counters a call takes is quota-counters.ts's).
 */
import { z } from 'zod';
import { toolPatterns } from '../handler-set/tool-patterns';

/** The windows a rule counts in, by their length in seconds (fixed, aligned on the epoch). */
export const QUOTA_WINDOWS = { minute: 60, hour: 3_600, day: 86_400 } as const;
export type QuotaWindow = keyof typeof QUOTA_WINDOWS;

/** How many rules one deployment may declare: every call checks each that applies. */
export const MAX_QUOTA_RULES = 64;
/** The most calls one window of a rule may allow (the counters are Postgres integers). */
export const MAX_QUOTA_CALLS = 1_000_000_000;

/** The names the environment's rules take: a file's rule may not take them too. */
export const ENV_RULE_NAMES = { principal: 'per-principal', tenant: 'per-tenant' } as const;

export interface QuotaRule {
  /** Its name, in errors (`data.quota`), metrics (`quota`) and logs. */
  name: string;
  /** Whom it counts: each principal, or each tenant (the TENANT_CLAIM of the caller's token). */
  per: 'principal' | 'tenant';
  /** Tool-name patterns (`*` any run of characters, `?` one): only `tools/call` of a matching tool counts. Absent: every call. */
  tools?: string[];
  /** Each matching tool counted apart (its own allowance), rather than the group together. */
  eachTool: boolean;
  /** The calls it allows per window; a window it does not name is not limited. */
  limits: Partial<Record<QuotaWindow, number>>;
}

const calls = z.number().int().min(1).max(MAX_QUOTA_CALLS);

export const QuotaRuleSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,47}$/, 'a lower-case letter, then up to 47 of a-z, 0-9, _ and -'),
    per: z.enum(['principal', 'tenant']).default('principal'),
    tools: toolPatterns.optional(),
    eachTool: z.boolean().default(false),
    perMinute: calls.optional(),
    perHour: calls.optional(),
    perDay: calls.optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.perMinute === undefined && rule.perHour === undefined && rule.perDay === undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'names none of perMinute, perHour and perDay' });
    if (rule.eachTool && rule.tools === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['eachTool'],
        message: 'needs tools: the patterns whose tools count apart',
      });
  });

export const QuotaFileSchema = z
  .object({ quotas: z.array(QuotaRuleSchema).max(MAX_QUOTA_RULES) })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>(Object.values(ENV_RULE_NAMES));
    file.quotas.forEach((rule, index) => {
      if (seen.has(rule.name))
        ctx.addIssue({
          code: 'custom',
          path: ['quotas', index, 'name'],
          message: Object.values(ENV_RULE_NAMES).includes(rule.name as never)
            ? `${rule.name} is the name of the QUOTA_CALLS_PER_* rule`
            : `${rule.name} is declared twice`,
        });
      seen.add(rule.name);
    });
  });

export class QuotaDeclarationError extends Error {
  override readonly name = 'QuotaDeclarationError';
}

const ruleOf = (declared: z.output<typeof QuotaRuleSchema>): QuotaRule => ({
  name: declared.name,
  per: declared.per,
  ...(declared.tools !== undefined ? { tools: declared.tools } : {}),
  eachTool: declared.eachTool,
  limits: {
    ...(declared.perMinute !== undefined ? { minute: declared.perMinute } : {}),
    ...(declared.perHour !== undefined ? { hour: declared.perHour } : {}),
    ...(declared.perDay !== undefined ? { day: declared.perDay } : {}),
  },
});

/** Parses a file's text: the rules it declares, or an error naming each field at fault (`quotas.0.perMinute: ...`). */
export function parseQuotaFile(text: string, origin: string): QuotaRule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new QuotaDeclarationError(`${origin} is not JSON: ${(error as Error).message}`);
  }
  const parsed = QuotaFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new QuotaDeclarationError(`${origin}: ${problems.join('; ')}`);
  }
  return parsed.data.quotas.map(ruleOf);
}

/** The variables that declare the simple rules (0: that window is not limited). */
export interface QuotaEnv {
  QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: number;
  QUOTA_CALLS_PER_DAY_PER_PRINCIPAL: number;
  QUOTA_CALLS_PER_MINUTE_PER_TENANT: number;
  QUOTA_CALLS_PER_DAY_PER_TENANT: number;
}

/** The rules the environment declares: per principal and per tenant, each for every call, when any window is set. */
export function quotaRulesOfEnv(env: QuotaEnv): QuotaRule[] {
  const rule = (name: string, per: QuotaRule['per'], minute: number, day: number): QuotaRule[] =>
    minute > 0 || day > 0
      ? [{ name, per, eachTool: false, limits: { ...(minute > 0 ? { minute } : {}), ...(day > 0 ? { day } : {}) } }]
      : [];
  return [
    ...rule(
      ENV_RULE_NAMES.principal,
      'principal',
      env.QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL,
      env.QUOTA_CALLS_PER_DAY_PER_PRINCIPAL,
    ),
    ...rule(ENV_RULE_NAMES.tenant, 'tenant', env.QUOTA_CALLS_PER_MINUTE_PER_TENANT, env.QUOTA_CALLS_PER_DAY_PER_TENANT),
  ];
}

/**
 * Why these rules cannot run in this deployment, if they cannot: a rule per tenant needs the claim
 * that names the tenant (TENANT_CLAIM) and callers whose tokens carry it (AUTH_MODE=oauth).
 */
export function tenantRuleProblem(
  rules: readonly QuotaRule[],
  tenantClaim: string | undefined,
  authMode: string,
): string | undefined {
  const tenantRule = rules.find((rule) => rule.per === 'tenant');
  if (tenantRule === undefined) return undefined;
  if (tenantClaim === undefined)
    return `quota ${tenantRule.name} counts per tenant: set TENANT_CLAIM, the access-token claim that names a caller's tenant`;
  if (authMode !== 'oauth')
    return `quota ${tenantRule.name} counts per tenant, read from access tokens: it needs AUTH_MODE=oauth`;
  return undefined;
}
