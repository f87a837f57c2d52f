/**
 * An upstream MCP server the service stands in front of, as an operator declares it: in a JSON
 * file (`UPSTREAMS_FILE`, `{ "upstreams": [ ... ] }`), or, for the one-upstream case, in the
 * environment (`UPSTREAM_URL` and its companions). Pure: parsing and defaults only.
 *
 * Credentials are the gateway's own, never the caller's token (the MCP authorization spec forbids
 * passing it through): none, or a bearer token read from the environment variable the file names,
 * so no secret sits in the file.
 */
import { z } from 'zod';
import { CallPolicySchema, MAX_POLICIES, type CallPolicy } from './call-policy';
import { secretProblem } from '../webhooks/webhook-secret';
import { approvalProblem } from './approval-request';

/** How many upstreams one service may declare: each is a client, a catalog and a refresh loop. */
export const MAX_UPSTREAMS = 32;

const name = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a lower-case letter, then up to 31 of a-z, 0-9, _ and -');

const url = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'an http: or https: URL (Streamable HTTP)');

const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name');

const auth = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z
    .object({
      kind: z.literal('bearer'),
      /** The environment variable that holds the token (read when the service starts). */
      tokenEnv: envName,
    })
    .strict(),
  z
    .object({
      kind: z.literal('client-credentials'),
      /** The upstream's authorization server's token endpoint. */
      tokenUrl: url,
      clientId: z.string().min(1).max(255),
      /** The environment variable that holds the client secret. */
      clientSecretEnv: envName,
      scope: z.string().min(1).max(1000).optional(),
      /** RFC 8707 resource indicator, when the authorization server wants one (often the upstream's URL). */
      resource: z.string().url().optional(),
    })
    .strict(),
]);

export const UpstreamFileEntrySchema = z
  .object({
    name,
    url,
    auth: auth.default({ kind: 'none' }),
    /** Put before each of its tools' and prompts' names where the service lists them (`billing_` makes `billing_refund`). */
    toolPrefix: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{0,32}$/, 'up to 32 of A-Z, a-z, 0-9, _, . and -')
      .default(''),
    /** How long one upstream `tools/call` or `tools/list` may take. */
    callTimeoutMs: z.number().int().min(100).max(600_000).default(25_000),
    /** How many times a round calls again after a failure that may pass (guarded-upstream.ts). */
    retries: z.number().int().min(0).max(5).default(2),
    /** Failed calls in a row after which its circuit opens, in each worker. */
    circuitFailures: z.number().int().min(1).max(100).default(5),
    /** How long an open circuit fails its calls at once before it lets one through. */
    circuitOpenMs: z.number().int().min(1_000).max(600_000).default(30_000),
    /** How often its tools, prompts and resources are listed again. */
    refreshEveryMs: z.number().int().min(1_000).max(86_400_000).default(300_000),
    /** The largest upstream result taken, in bytes of JSON: past it the call gets a tool error. */
    maxResultBytes: z.number().int().min(1_024).max(16_777_216).default(1_048_576),
    /**
     * The most entries the service takes from each of its listings (tools, prompts, resources,
     * resource templates): a longer listing is cut there, and a warning says so.
     */
    maxListed: z.number().int().min(1).max(10_000).default(1_000),
    /** Whether each call tells the upstream who the caller is (`_meta["io.durable-mcp/caller"]`). */
    forwardCaller: z.boolean().default(false),
    /**
     * How its rounds run: as regular activities (heartbeating, bounded by HANDLER_TIMEOUT_MS), or
     * as local ones, inside the workflow task that decides them (fewer Temporal actions and history
     * events, no task-queue round trip), bounded by LOCAL_HANDLER_TIMEOUT_MS. Regular by default: a
     * slow upstream holding a local round holds its workflow task, and the exchange's answers wait.
     */
    roundActivity: z.enum(['regular', 'local']).default('regular'),
    /** What a call needs before it is forwarded (call-policy.ts): the first that matches decides. */
    policies: z.array(CallPolicySchema).max(MAX_POLICIES).default([]),
  })
  .strict()
  .superRefine((upstream, ctx) => {
    upstream.policies.forEach((policy, index) => {
      const problem = 'approve' in policy ? approvalProblem(policy.approve) : undefined;
      if (problem) ctx.addIssue({ code: 'custom', path: ['policies', index, 'approve'], message: problem });
    });
  });

export const UpstreamFileSchema = z
  .object({ upstreams: z.array(UpstreamFileEntrySchema).max(MAX_UPSTREAMS) })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.upstreams.forEach((upstream, index) => {
      if (seen.has(upstream.name))
        ctx.addIssue({
          code: 'custom',
          path: ['upstreams', index, 'name'],
          message: `${upstream.name} is declared twice`,
        });
      seen.add(upstream.name);
    });
  });

export type UpstreamFileEntry = z.output<typeof UpstreamFileEntrySchema>;

/** How the gateway gets an access token at an upstream (the client-credentials grant, lib/gateway/upstream-credentials.ts). */
export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** RFC 8707: the upstream's resource identifier, when its authorization server wants one. */
  resource?: string;
}

/** An upstream as the service uses it: its declaration with its credential resolved. */
export interface Upstream extends Omit<UpstreamFileEntry, 'auth'> {
  /** The `Authorization` header value the gateway sends there, if a fixed one. */
  authorization?: string;
  /** How the gateway gets its access tokens there, by the client-credentials grant (upstream-credentials.ts). */
  clientCredentials?: ClientCredentials;
}

export class UpstreamDeclarationError extends Error {
  override readonly name = 'UpstreamDeclarationError';
}

/** The upstreams a parsed file declares, their credentials read from `env`. */
/** Each decision point's secret, read from the variable it names. */
function withSecrets(upstream: string, policies: CallPolicy[], env: NodeJS.ProcessEnv): CallPolicy[] {
  return policies.map((policy) => {
    if (!('decide' in policy)) return policy;
    const secret = env[policy.decide.secretEnv];
    const problem = secret === undefined ? 'is not set' : secretProblem(secret);
    if (problem)
      throw new UpstreamDeclarationError(
        `upstream ${upstream}, policy ${policy.name}: its decision point's secret variable ${policy.decide.secretEnv} ${problem}`,
      );
    return { ...policy, decide: { ...policy.decide, secret } };
  });
}

export function upstreamsOfFile(file: z.output<typeof UpstreamFileSchema>, env: NodeJS.ProcessEnv): Upstream[] {
  return file.upstreams.map(({ auth: credential, ...declared }) => {
    const upstream = { ...declared, policies: withSecrets(declared.name, declared.policies, env) };
    if (credential.kind === 'none') return upstream;
    const variable = credential.kind === 'bearer' ? credential.tokenEnv : credential.clientSecretEnv;
    const secret = env[variable];
    if (!secret)
      throw new UpstreamDeclarationError(
        `upstream ${upstream.name}: its ${credential.kind === 'bearer' ? 'bearer token' : 'client secret'} variable ${variable} is not set`,
      );
    if (credential.kind === 'bearer') return { ...upstream, authorization: `Bearer ${secret}` };
    const { tokenUrl, clientId, scope, resource } = credential;
    return {
      ...upstream,
      clientCredentials: {
        tokenUrl,
        clientId,
        clientSecret: secret,
        ...(scope !== undefined ? { scope } : {}),
        ...(resource !== undefined ? { resource } : {}),
      },
    };
  });
}

/** Where a file's problems are, one line each: `upstreams.0.url: Invalid url`. */
export function fileProblems(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ');
}

/** Parses a file's text: the upstreams it declares, or an error naming each field at fault. */
export function parseUpstreamFile(text: string, env: NodeJS.ProcessEnv, origin: string): Upstream[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UpstreamDeclarationError(`${origin} is not JSON: ${(error as Error).message}`);
  }
  const parsed = UpstreamFileSchema.safeParse(json);
  if (!parsed.success) throw new UpstreamDeclarationError(`${origin}: ${fileProblems(parsed.error)}`);
  return upstreamsOfFile(parsed.data, env);
}

/** The one upstream the environment declares (`UPSTREAM_URL` and its companions), parsed as a file entry is. */
export function upstreamOfEnv(values: {
  url: string;
  name: string;
  toolPrefix: string;
  bearerToken?: string;
  callTimeoutMs: number;
  roundActivity?: 'regular' | 'local';
}): Upstream {
  const parsed = UpstreamFileEntrySchema.safeParse({
    name: values.name,
    url: values.url,
    toolPrefix: values.toolPrefix,
    callTimeoutMs: values.callTimeoutMs,
    ...(values.roundActivity !== undefined ? { roundActivity: values.roundActivity } : {}),
  });
  if (!parsed.success) throw new UpstreamDeclarationError(`UPSTREAM_*: ${fileProblems(parsed.error)}`);
  const { auth: _none, ...upstream } = parsed.data;
  return values.bearerToken ? { ...upstream, authorization: `Bearer ${values.bearerToken}` } : upstream;
}
