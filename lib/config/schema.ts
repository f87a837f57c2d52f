/**
 * Every variable the service reads, in the groups docs/configuration.md lists them in: one schema
 * for the whole environment, assembled from the groups' declarations (variables/, and the
 * Temporal security and tracing modules, which parse their own).
 */
import { z } from 'zod';
import { GRPC_META_DOC, TEMPORAL_SECURITY_ENV } from './temporal-security';
import { TRACING_ENV } from './tracing';
import { ANSWER_VARIABLES } from './variables/answers';
import { AUTHORIZATION_VARIABLES } from './variables/authorization';
import { BUDGET_VARIABLES } from './variables/budgets';
import { EVIDENCE_VARIABLES } from './variables/evidence';
import { EXCHANGE_VARIABLES, RETENTION_VARIABLES, TASK_VARIABLES } from './variables/exchanges';
import { HTTP_VARIABLES, OPERATING_VARIABLES, PROCESS_VARIABLES } from './variables/service';
import { POSTGRES_VARIABLES, TEMPORAL_VARIABLES } from './variables/temporal';
import { QUOTA_VARIABLES } from './variables/quotas';
import { UPSTREAM_VARIABLES } from './variables/upstreams';
import { WEBHOOK_VARIABLES } from './variables/webhooks';

/** The groups, titled and in the order the docs show them. */
export const CONFIG_GROUPS = [
  { title: 'Postgres', variables: POSTGRES_VARIABLES },
  { title: 'Temporal and the worker', variables: TEMPORAL_VARIABLES },
  { title: 'Connecting to a secured Temporal', variables: TEMPORAL_SECURITY_ENV, patterns: [GRPC_META_DOC] },
  { title: 'Exchanges and handlers', variables: EXCHANGE_VARIABLES },
  { title: 'Tasks (the Tasks extension, SEP-2663)', variables: TASK_VARIABLES },
  { title: 'Upstreams (the gateway)', variables: UPSTREAM_VARIABLES },
  { title: 'HTTP', variables: HTTP_VARIABLES },
  { title: 'Authorization', variables: AUTHORIZATION_VARIABLES },
  { title: 'Answering questions', variables: ANSWER_VARIABLES },
  { title: 'Webhooks', variables: WEBHOOK_VARIABLES },
  { title: 'Evidence of decisions', variables: EVIDENCE_VARIABLES },
  { title: 'Operating: the admin API, the codec endpoint, metrics', variables: OPERATING_VARIABLES },
  { title: 'Traces', variables: TRACING_ENV },
  { title: "Retention of the service's records", variables: RETENTION_VARIABLES },
  { title: 'The process', variables: PROCESS_VARIABLES },
  { title: 'Budgets', variables: BUDGET_VARIABLES },
  { title: 'Quotas', variables: QUOTA_VARIABLES },
] as const;

export const EnvSchema = z.object({
  ...PROCESS_VARIABLES,
  ...HTTP_VARIABLES,
  ...OPERATING_VARIABLES,
  ...AUTHORIZATION_VARIABLES,
  ...ANSWER_VARIABLES,
  ...TRACING_ENV,
  ...POSTGRES_VARIABLES,
  ...TEMPORAL_VARIABLES,
  ...TEMPORAL_SECURITY_ENV,
  ...EXCHANGE_VARIABLES,
  ...TASK_VARIABLES,
  ...UPSTREAM_VARIABLES,
  ...BUDGET_VARIABLES,
  ...QUOTA_VARIABLES,
  ...RETENTION_VARIABLES,
  ...WEBHOOK_VARIABLES,
  ...EVIDENCE_VARIABLES,
});

export type Env = z.input<typeof EnvSchema>;

/** A variable's default as the environment would spell it: none when required, '' when it may be unset. */
export function defaultOf(schema: z.ZodType): { required: true } | { required: false; value: string } {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) return { required: true };
  const value = parsed.data;
  return { required: false, value: value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value) };
}

/**
 * Every variable the service reads, with its default as the environment would spell it (none
 * when the variable is required): what a deployment file must set, checked by its tests.
 */
export const CONFIG_VARIABLES: ReadonlyArray<{ name: string; default?: string }> = Object.entries(EnvSchema.shape).map(
  ([name, schema]) => {
    const found = defaultOf(schema as z.ZodType);
    return found.required ? { name } : { name, default: found.value };
  },
);

/** A variable's parsed default, for code that runs without a Config (the authoring harness, tests). */
export const defaultValueOf = <K extends keyof typeof EnvSchema.shape>(
  name: K,
): z.output<(typeof EnvSchema.shape)[K]> =>
  EnvSchema.shape[name].parse(undefined) as z.output<(typeof EnvSchema.shape)[K]>;
