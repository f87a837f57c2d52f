/**
 * What an upstream call needs before it is forwarded: nothing, a person's (or a service's) approval,
 * or nothing at all because it is denied. An upstream's policies are declared in order in its
 * entry of `UPSTREAMS_FILE`; the first whose tool patterns match the upstream's own tool name and
 * whose conditions all hold on the call's arguments decides. No policy matching: forwarded.
 *
 * Pure: the declarations' schema and the decision.
 */
import { z } from 'zod';
import type { Addressing } from '@durable-mcp/handlers';
import { toolPattern, toolPatterns } from '../handler-set/tool-patterns';

/** How many policies one upstream may declare, and conditions one policy may hold. */
export const MAX_POLICIES = 100;
export const MAX_CONDITIONS = 20;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const ConditionSchema = z.discriminatedUnion('op', [
  z
    .object({
      argument: z.string().min(1).max(200),
      op: z.enum(['eq', 'ne']),
      value: scalar,
    })
    .strict(),
  z
    .object({
      argument: z.string().min(1).max(200),
      op: z.enum(['gt', 'gte', 'lt', 'lte']),
      value: z.number(),
    })
    .strict(),
  z
    .object({
      argument: z.string().min(1).max(200),
      op: z.literal('in'),
      value: z.array(scalar).max(100),
    })
    .strict(),
  z.object({ argument: z.string().min(1).max(200), op: z.literal('exists') }).strict(),
]);

export type Condition = z.output<typeof ConditionSchema>;

const answererSchema = z.union([
  z.object({ issuer: z.string().min(1), subject: z.string().min(1) }).strict(),
  z.object({ service: z.string().min(1), issuer: z.string().min(1).optional() }).strict(),
  z.object({ scope: z.string().min(1) }).strict(),
  z.object({ group: z.string().min(1) }).strict(),
  z.object({ caller: z.literal(true) }).strict(),
]);

/** The same vocabulary as a handler's `elicitFrom` (packages/handlers addressed.ts). */
const AddressingSchema = z
  .object({
    anyOf: z.array(answererSchema).min(1).optional(),
    eachOf: z.array(answererSchema).min(1).optional(),
    excludeCaller: z.boolean().optional(),
    waitMs: z.number().int().positive().optional(),
    remindAfterMs: z.number().int().positive().optional(),
    escalate: z
      .object({ afterMs: z.number().int().positive(), to: z.array(answererSchema).min(1) })
      .strict()
      .optional(),
    requireSignIn: z
      .object({
        maxAgeS: z.number().int().positive().optional(),
        acr: z.array(z.string().min(1)).optional(),
        amr: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((a) => (a.anyOf === undefined) !== (a.eachOf === undefined), 'exactly one of anyOf and eachOf');

const base = {
  name: z.string().min(1).max(100),
  tools: toolPatterns,
  when: z.array(ConditionSchema).max(MAX_CONDITIONS).default([]),
};

/** An external decision point (decision-point.ts): asked, in the AuthZEN evaluation shape, whether to forward and who must approve. */
const DecisionPointSchema = z
  .object({
    url: z.string().url(),
    /** The environment variable holding its Standard Webhooks secret (`whsec_...`), which signs each request. */
    secretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name'),
    timeoutMs: z.number().int().min(100).max(30_000).default(5_000),
    /** What an unreachable, late or unreadable decision point means: `deny` (fail closed, the default) or `allow`. */
    onError: z.enum(['deny', 'allow']).default('deny'),
  })
  .strict();

export type DecisionPoint = z.output<typeof DecisionPointSchema> & {
  /** The secret `secretEnv` names, read when the declaration is (upstream-declaration.ts). */
  secret?: string;
};

export const CallPolicySchema = z.union([
  z.object({ ...base, approve: AddressingSchema }).strict(),
  z.object({ ...base, deny: z.string().min(1).max(500) }).strict(),
  z.object({ ...base, decide: DecisionPointSchema }).strict(),
]);

export type CallPolicy = z.output<typeof CallPolicySchema>;

export type PolicyDecision =
  | { kind: 'forward' }
  | { kind: 'approve'; policy: string; addressing: Addressing }
  | { kind: 'deny'; policy: string; reason: string }
  | { kind: 'ask'; policy: string; point: DecisionPoint };

/** The value at a dotted path of the arguments (`customer.id`), if there is one. */
function argumentAt(args: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let value: unknown = args;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return { found: false };
    value = (value as Record<string, unknown>)[part];
  }
  return { found: true, value };
}

/**
 * Whether `condition` holds on `args`. A number comparison holds on a value that is not a number
 * (a numeric string is compared as its number): a policy is never escaped by sending a string.
 */
export function conditionHolds(condition: Condition, args: Record<string, unknown>): boolean {
  const { found, value } = argumentAt(args, condition.argument);
  if (condition.op === 'exists') return found;
  if (!found) return false;
  switch (condition.op) {
    case 'eq':
      return value === condition.value;
    case 'ne':
      return value !== condition.value;
    case 'in':
      return condition.value.some((candidate) => candidate === value);
    default: {
      // An upstream may take "100000" for 100000 (or coerce whatever it gets): a numeric string is
      // compared as its number, and any other value holds, so a policy fails closed, never open.
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(number))
        return compare(number, condition);
      if (typeof value !== 'number') return true;
      return compare(value, condition);
    }
  }
}

function compare(value: number, condition: Extract<Condition, { op: 'gt' | 'gte' | 'lt' | 'lte' }>): boolean {
  const limit = condition.value;
  if (condition.op === 'gt') return value > limit;
  if (condition.op === 'gte') return value >= limit;
  return condition.op === 'lt' ? value < limit : value <= limit;
}

/** Whether a policy names `tool`, whatever the arguments. */
export const policyNamesTool = (policy: CallPolicy, tool: string): boolean =>
  policy.tools.some((pattern) => toolPattern(pattern).test(tool));

/** What the first policy that matches a call of `tool` (the upstream's own name) with `args` decides. */
export function decideCall(
  policies: readonly CallPolicy[],
  tool: string,
  args: Record<string, unknown>,
): PolicyDecision {
  for (const policy of policies) {
    if (!policyNamesTool(policy, tool)) continue;
    if (!policy.when.every((condition) => conditionHolds(condition, args))) continue;
    if ('deny' in policy) return { kind: 'deny', policy: policy.name, reason: policy.deny };
    if ('decide' in policy) return { kind: 'ask', policy: policy.name, point: policy.decide };
    return { kind: 'approve', policy: policy.name, addressing: policy.approve as Addressing };
  }
  return { kind: 'forward' };
}

/** Whether every call of `tool` is denied (a deny policy with no conditions names it first): such a tool is not listed. */
export function alwaysDenied(policies: readonly CallPolicy[], tool: string): boolean {
  const first = policies.find((policy) => policyNamesTool(policy, tool) && policy.when.length === 0);
  if (!first) return false;
  // A conditional policy before it may still decide some calls otherwise.
  const before = policies.slice(0, policies.indexOf(first));
  return 'deny' in first && !before.some((policy) => policyNamesTool(policy, tool));
}
