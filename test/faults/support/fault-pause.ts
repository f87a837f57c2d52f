/**
 * Holds a worker inside a window on purpose: an activity interceptor that lets the first activity
 * matching a pause spec run to the end (so its round is recorded in Postgres and announced), then
 * logs `fault window open` and never returns. The worker's workflow task (for a local activity)
 * or the activity itself (a regular one, which keeps heartbeating) stays open until the scenario
 * kills the process: the window between "the client can see this" and "Temporal knows it" is held
 * open for as long as the scenario needs, instead of hit by timing.
 *
 * A spec is `key=value` pairs joined by commas, every one of which must hold:
 *   activity=runRound|recordOutcome (required), round=<n>, outcome=ask|complete|error, target=<tool>.
 * Only the first match pauses; later activities run as usual.
 */
import { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Logger } from '../../../lib/log';

export interface PauseSpec {
  activity: string;
  round?: number;
  outcome?: string;
  target?: string;
}

const KEYS = new Set(['activity', 'round', 'outcome', 'target']);

export function parsePauseSpec(text: string): PauseSpec {
  const fields = Object.fromEntries(
    text.split(',').map((pair) => {
      const [key, value] = pair.split('=').map((part) => part.trim());
      if (!key || !value || !KEYS.has(key)) throw new Error(`FAULT_PAUSE: cannot read "${pair}" in "${text}"`);
      return [key, value];
    }),
  );
  if (!fields.activity) throw new Error(`FAULT_PAUSE: "${text}" names no activity`);
  if (fields.round !== undefined && !/^\d+$/.test(fields.round)) throw new Error(`FAULT_PAUSE: bad round in "${text}"`);
  return {
    activity: fields.activity,
    ...(fields.round !== undefined ? { round: Number(fields.round) } : {}),
    ...(fields.outcome ? { outcome: fields.outcome } : {}),
    ...(fields.target ? { target: fields.target } : {}),
  };
}

/** What the round and ending activities take and return, as far as a spec looks at them. */
interface ActivityArgs {
  round?: number;
  /** A round the workflow vouched for as a first start (workflows/first-start.ts): it neither looked for its record nor counted its start. */
  firstStart?: boolean;
  exchange?: { exchangeId?: string; request?: { target?: string } };
}

export function pauseInterceptor(spec: PauseSpec, log: Logger): ActivityInterceptorsFactory {
  let paused = false;
  return (ctx: Context) => ({
    inbound: {
      async execute(input, next) {
        const result = await next(input);
        const args = (input.args[0] ?? {}) as ActivityArgs;
        const outcome = (result as { kind?: string } | undefined)?.kind;
        const matches =
          ctx.info.activityType === spec.activity &&
          (spec.round === undefined || args.round === spec.round) &&
          (spec.outcome === undefined || outcome === spec.outcome) &&
          (spec.target === undefined || args.exchange?.request?.target === spec.target);
        if (paused || !matches) return result;
        paused = true;
        log.info(
          {
            exchangeId: args.exchange?.exchangeId,
            round: args.round,
            activity: ctx.info.activityType,
            local: ctx.info.isLocal,
            outcome,
            firstStart: args.firstStart === true,
          },
          'fault window open',
        );
        // A regular activity keeps heartbeating, so Temporal holds it as running rather than retry
        // it elsewhere; a local one has nothing to heartbeat (its workflow task is what stays open).
        if (!ctx.info.isLocal) setInterval(() => ctx.heartbeat(), 1_000);
        return new Promise<never>(() => undefined);
      },
    },
  });
}
