/**
 * The upstreams a process's configuration declares: `UPSTREAMS_FILE`'s, or the one `UPSTREAM_URL`
 * names, or none. A file that cannot be read or declares something invalid stops the start, its
 * message naming the file and each field at fault.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './errors';
import { upstreamsBudgetProblem } from '../upstreams/call-budget';
import {
  parseUpstreamFile,
  upstreamOfEnv,
  UpstreamDeclarationError,
  type Upstream,
} from '../upstreams/upstream-declaration';

interface UpstreamEnv {
  UPSTREAMS_FILE?: string;
  UPSTREAM_URL?: string;
  UPSTREAM_NAME: string;
  UPSTREAM_TOOL_PREFIX: string;
  UPSTREAM_BEARER_TOKEN?: string;
  UPSTREAM_CALL_TIMEOUT_MS: number;
  UPSTREAM_ROUND_ACTIVITY: 'regular' | 'local';
  HANDLER_TIMEOUT_MS: number;
  LOCAL_HANDLER_TIMEOUT_MS: number;
}

/** The file's field names are those of UPSTREAMS_FILE; `UPSTREAM_URL`'s are variables. */
const IN_THE_ENVIRONMENT =
  ' (for UPSTREAM_URL: callTimeoutMs is UPSTREAM_CALL_TIMEOUT_MS, roundActivity UPSTREAM_ROUND_ACTIVITY, retries 2)';

/** `source` is the raw environment: a file's bearer tokens are read from the variables it names. */
export function upstreamsOf(env: UpstreamEnv, source: Record<string, string | undefined>): Upstream[] {
  const upstreams = declaredUpstreams(env, source);
  const problem = upstreamsBudgetProblem(upstreams, {
    handlerTimeoutMs: env.HANDLER_TIMEOUT_MS,
    localHandlerTimeoutMs: env.LOCAL_HANDLER_TIMEOUT_MS,
  });
  const where = env.UPSTREAMS_FILE === undefined ? IN_THE_ENVIRONMENT : '';
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}${where}`);
  return upstreams;
}

function declaredUpstreams(env: UpstreamEnv, source: Record<string, string | undefined>): Upstream[] {
  try {
    if (env.UPSTREAMS_FILE !== undefined && env.UPSTREAM_URL !== undefined)
      throw new UpstreamDeclarationError(
        'UPSTREAMS_FILE and UPSTREAM_URL are both set: declare the upstream in the file',
      );
    if (env.UPSTREAMS_FILE !== undefined) {
      let text: string;
      try {
        text = readFileSync(env.UPSTREAMS_FILE, 'utf8');
      } catch (error) {
        throw new UpstreamDeclarationError(
          `UPSTREAMS_FILE ${env.UPSTREAMS_FILE} cannot be read: ${(error as Error).message}`,
        );
      }
      return parseUpstreamFile(text, source, `UPSTREAMS_FILE ${env.UPSTREAMS_FILE}`);
    }
    if (env.UPSTREAM_URL === undefined) return [];
    return [
      upstreamOfEnv({
        url: env.UPSTREAM_URL,
        name: env.UPSTREAM_NAME,
        toolPrefix: env.UPSTREAM_TOOL_PREFIX,
        callTimeoutMs: env.UPSTREAM_CALL_TIMEOUT_MS,
        roundActivity: env.UPSTREAM_ROUND_ACTIVITY,
        ...(env.UPSTREAM_BEARER_TOKEN !== undefined ? { bearerToken: env.UPSTREAM_BEARER_TOKEN } : {}),
      }),
    ];
  } catch (error) {
    if (error instanceof UpstreamDeclarationError) throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
}
