/**
 * `durable-mcp check --upstreams <file>`: reads an UPSTREAMS_FILE as the service reads it when it
 * starts (every field, the credentials' and decision points' variables in this environment, every
 * policy's addressing, each upstream's calls against its rounds' bound: HANDLER_TIMEOUT_MS, or
 * LOCAL_HANDLER_TIMEOUT_MS for `roundActivity: 'local'`, as this environment sets them), without
 * calling any upstream: for an operator's CI before a deploy or a policy change.
 */
import { readFileSync } from 'node:fs';
import { EnvSchema } from '../lib/config/schema';
import { variableProblem } from '../lib/config/variable-problem';
import { callBudgetMs, upstreamsBudgetProblem, type RoundBounds } from '../lib/upstreams/call-budget';
import { parseUpstreamFile, UpstreamDeclarationError, type Upstream } from '../lib/upstreams/upstream-declaration';
import { EXIT_INVALID_MODULE } from './check-command';

/** A round's bound as the service reads it from `env`: its default when unset. */
function boundOf(env: NodeJS.ProcessEnv, name: 'HANDLER_TIMEOUT_MS' | 'LOCAL_HANDLER_TIMEOUT_MS'): number {
  const schema = EnvSchema.shape[name];
  const parsed = schema.safeParse(env[name]);
  if (parsed.success) return parsed.data;
  throw new UpstreamDeclarationError(variableProblem(name, env[name], parsed.error.issues[0]!.message, schema));
}

/** One upstream in one line; a local one with its calls' budget against its bound. */
function described(upstream: Upstream, bounds: RoundBounds): string {
  const policies = upstream.policies.map((policy) => policy.name).join(', ');
  const local =
    upstream.roundActivity === 'local'
      ? `; rounds as local activities (calls within ${callBudgetMs(upstream)} ms of LOCAL_HANDLER_TIMEOUT_MS ${bounds.localHandlerTimeoutMs})`
      : '';
  return `  upstream ${upstream.name} at ${upstream.url}${policies ? `; policies: ${policies}` : ''}${local}\n`;
}

export function checkUpstreamsCommand(
  file: string,
  out: NodeJS.WritableStream = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  try {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UpstreamDeclarationError(`${file} cannot be read: ${(error as Error).message}`);
    }
    const upstreams = parseUpstreamFile(text, env, file);
    const bounds = {
      handlerTimeoutMs: boundOf(env, 'HANDLER_TIMEOUT_MS'),
      localHandlerTimeoutMs: boundOf(env, 'LOCAL_HANDLER_TIMEOUT_MS'),
    };
    const problem = upstreamsBudgetProblem(upstreams, bounds);
    if (problem) throw new UpstreamDeclarationError(`${file}: ${problem}`);
    out.write(`${file}: ${upstreams.length} upstream${upstreams.length === 1 ? '' : 's'}, all valid\n`);
    for (const upstream of upstreams) out.write(described(upstream, bounds));
    return 0;
  } catch (error) {
    if (!(error instanceof UpstreamDeclarationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return EXIT_INVALID_MODULE;
  }
}
