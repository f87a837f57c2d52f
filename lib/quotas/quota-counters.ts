/**
 * Which quota counters a call takes, and what a full one tells the caller. A rule applies to a new
 * exchange when its tool patterns (if it has any) match the `tools/call` target, and, per tenant,
 * when the caller's token names a tenant; it then takes one call from a counter per window it
 * limits, keyed by the rule, whom it counts (and the tool, when each tool counts apart). The
 * windows are fixed and aligned on the epoch, by the database's clock (migrations/0030): a full
 * counter frees at the end of its window, which the refusal names.
 *
 * Pure: the counting itself is one Postgres statement (lib/db/quota-counters-pg.ts).
 */
import { createHash } from 'node:crypto';
import type { ExchangeMethod } from '../exchange/types';
import { toolPattern } from '../handler-set/tool-patterns';
import type { QuotaRefusal } from '../protocol/error-catalog';
import { QUOTA_WINDOWS, type QuotaRule, type QuotaWindow } from './quota-rules';

/** What a new exchange's first leg is, to the quotas. */
export interface QuotaCall {
  /** The principal's key (lib/exchange/principal.ts); the anonymous principal is one like any other. */
  principal: string;
  /** The caller's tenant, when the deployment reads one (TENANT_CLAIM) and its token names it. */
  tenant?: string;
  method: ExchangeMethod;
  target: string;
}

/** One counter a call takes from: at most `limit` calls per `window` under `key`. */
export interface QuotaCounter {
  rule: string;
  window: QuotaWindow;
  windowS: number;
  limit: number;
  key: string;
}

/** A key this long or longer is stored as its digest: a long tool name must not make an index entry too large. */
const MAX_KEY_LENGTH = 512;

/** A rule with its patterns compiled once. */
interface CompiledRule extends QuotaRule {
  patterns?: RegExp[];
}

export type QuotaRules = readonly CompiledRule[];

export const compileQuotaRules = (rules: readonly QuotaRule[]): QuotaRules =>
  rules.map((rule) => (rule.tools ? { ...rule, patterns: rule.tools.map(toolPattern) } : rule));

/** Whether `rule` counts `call` at all. */
function applies(rule: CompiledRule, call: QuotaCall): boolean {
  if (rule.per === 'tenant' && call.tenant === undefined) return false;
  if (!rule.patterns) return true;
  return call.method === 'tools/call' && rule.patterns.some((pattern) => pattern.test(call.target));
}

/**
 * The key of a rule's counter for a call: the rule, whom it counts and, counting each tool apart,
 * the tool, as JSON (no two combinations spell one key), or its digest when that is long.
 */
function keyOf(rule: CompiledRule, call: QuotaCall): string {
  const who = rule.per === 'tenant' ? ['tenant', call.tenant] : ['principal', call.principal];
  const key = JSON.stringify([rule.name, ...who, ...(rule.eachTool ? [call.target] : [])]);
  return key.length < MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Every counter `call` takes from: one per window of each rule that applies, in the rules' order. */
export function countersFor(rules: QuotaRules, call: QuotaCall): QuotaCounter[] {
  return rules
    .filter((rule) => applies(rule, call))
    .flatMap((rule) => {
      const key = keyOf(rule, call);
      return (Object.keys(QUOTA_WINDOWS) as QuotaWindow[]).flatMap((window) => {
        const limit = rule.limits[window];
        return limit === undefined ? [] : [{ rule: rule.name, window, windowS: QUOTA_WINDOWS[window], limit, key }];
      });
    });
}

/**
 * What the call refused by a full `counter` is told, its window having started at `windowStart`
 * and the take made at `takenAt` (both by the database's clock): the window's end, and the whole
 * seconds until then (at least 1, so a client never retries at once into the same window).
 */
export function refusalOf(counter: QuotaCounter, windowStart: Date, takenAt: Date): QuotaRefusal {
  const resetMs = windowStart.getTime() + counter.windowS * 1000;
  return {
    quota: counter.rule,
    window: counter.window,
    windowS: counter.windowS,
    limit: counter.limit,
    retryAfterS: Math.max(1, Math.ceil((resetMs - takenAt.getTime()) / 1000)),
    resetAt: new Date(resetMs).toISOString(),
  };
}
