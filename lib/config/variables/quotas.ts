/**
 * The quotas of calls: how many new exchanges a principal or a tenant may start per window,
 * counted in Postgres across every API replica (docs/operators.md "Quotas"). Off unless set.
 */
import { z } from 'zod';
import { MAX_QUOTA_CALLS } from '../../quotas/quota-rules';
import { documented } from './documented';
import { integer, unsetWhenEmpty } from './value-kinds';

const perWindow = (whose: string, window: string) =>
  documented(
    integer(0, MAX_QUOTA_CALLS).default(0),
    `new exchanges (the first leg of a \`tools/call\`, \`prompts/get\` or \`resources/read\`, tasks included) ${whose} may start per ${window} (a fixed window: ${window === 'minute' ? 'each minute from :00' : 'each day from 00:00 UTC'}), counted in Postgres across every API replica; 0: no limit. When reached: \`-32000\` / 429 with \`Retry-After\`, \`data.quota\`, \`data.limit\`, \`data.window\`, \`data.retryAfterS\` and \`data.resetAt\`, nothing started. Answers to a running exchange never count`,
  );

/** Quotas */
export const QUOTA_VARIABLES = {
  QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: perWindow(
    'one principal (with `AUTH_MODE=off`, every caller together: the anonymous principal is one)',
    'minute',
  ),
  QUOTA_CALLS_PER_DAY_PER_PRINCIPAL: perWindow('one principal', 'day'),
  QUOTA_CALLS_PER_MINUTE_PER_TENANT: perWindow(
    'all the principals of one tenant (`TENANT_CLAIM`) together; a caller whose token names no tenant is counted by its principal only',
    'minute',
  ),
  QUOTA_CALLS_PER_DAY_PER_TENANT: perWindow('all the principals of one tenant together', 'day'),
  QUOTAS_FILE: documented(
    unsetWhenEmpty(z.string().trim().min(1)),
    'a JSON file of quota rules beside the variables above: per tool or group of tools (patterns), per principal or tenant, per minute, hour or day (`{ "quotas": [ { "name", "per", "tools", "eachTool", "perMinute", "perHour", "perDay" } ] }`, see [Operating: Quotas](operators.md#quotas)); check it with `durable-mcp check --quotas <file>`. Read at start',
    '(none)',
  ),
};
