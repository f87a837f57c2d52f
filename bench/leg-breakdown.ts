/**
 * Where an answer leg's milliseconds go, from the spans one leg left (lib/tracing/step-span.ts,
 * the leg's span, Temporal's signal and activity spans, the handler's) and the client's own clock:
 * consecutive stages from the client sending the request to it reading the reply, each the time
 * between two span edges, so a leg's stages add up to what its client measured. Pure.
 *
 * OpenTelemetry's SDK takes a span's start from `Date.now()` (whole milliseconds; its duration is
 * precise), so a stage between two spans is off by up to a millisecond either way in one leg, and
 * its median is a step function of that: read the means, in which the truncations cancel, and
 * which add up to the mean leg.
 */
import { STEP_SPANS } from '../lib/tracing/step-span';
import { percentile } from './stats';

/** A finished span: its name and its edges, in epoch milliseconds. */
export interface TimedSpan {
  name: string;
  startMs: number;
  endMs: number;
}

/** One leg as its client timed it (epoch milliseconds), and the spans that fell inside it. */
export interface TimedLeg {
  sentMs: number;
  receivedMs: number;
  spans: readonly TimedSpan[];
}

/** The stages, in the order a leg passes them, with what each one is. */
export const STAGES = [
  ['http in', 'the client sends; HTTP, JSON parse, the route (up to the leg span)'],
  ['validation', 'request validation, the request digest, the in-flight gate'],
  ['requestState', 'its verification (AES-GCM open, claims)'],
  ['trace link', "reading the exchange's trace context: tracing's own read, absent untraced"],
  [
    'read rounds',
    "Postgres: the ask's round and the next, one statement; none when the API kept the ask it handed out (served-asks.ts)",
  ],
  ['checks', "the answer's classification and budgets, up to the signal"],
  ['signal', "Temporal's signal: payload encryption, gRPC, the server's write"],
  [
    'workflow task',
    'Temporal dispatches the task; the worker decrypts the activation, runs the workflow, starts the local activity',
  ],
  ['activity start', "the activity's set-up, and the look for its record when it is not a vouched first start"],
  ['handler', "the tool's handler"],
  ['ask rules', "the ask's rules and the handler state sealed"],
  ['record round', 'Postgres: the round, the exchange row and NOTIFY in one statement, committed'],
  ['notify', 'the API hears the NOTIFY and wakes the waiting leg'],
  ['reply', 'the result built, its requestState sealed'],
  ['http out', 'JSON written and read by the client'],
] as const;

export type Stage = (typeof STAGES)[number][0];

const byName = (spans: readonly TimedSpan[], match: (name: string) => boolean) =>
  spans.filter((span) => match(span.name)).sort((a, b) => a.startMs - b.startMs)[0];

/** A leg's stages in ms, or what is missing from its spans. */
export function legStages(leg: TimedLeg): Record<Stage, number> | { missing: string[] } {
  const find = {
    leg: byName(leg.spans, (name) => name === 'mcp tools/call'),
    verify: byName(leg.spans, (name) => name === STEP_SPANS.verifyRequestState),
    signal: byName(leg.spans, (name) => name.startsWith('SignalWorkflow')),
    activity: byName(leg.spans, (name) => name.startsWith('RunActivity')),
    handler: byName(leg.spans, (name) => name.startsWith('handler ')),
    record: byName(leg.spans, (name) => name === STEP_SPANS.recordRound),
    awaited: byName(leg.spans, (name) => name === STEP_SPANS.awaitRound),
  };
  const missing = Object.entries(find).flatMap(([key, span]) => (span ? [] : [key]));
  if (missing.length) return { missing };
  const {
    leg: span,
    verify,
    signal,
    activity,
    handler,
    record,
    awaited,
  } = find as Record<keyof typeof find, TimedSpan>;
  const link = byName(leg.spans, (name) => name === STEP_SPANS.readExchangeTrace);
  const linkMs = link ? link.endMs - link.startMs : 0;
  // Read before the signal only when the API did not keep the ask (then the wait reads after it).
  const reads = byName(leg.spans, (name) => name === STEP_SPANS.readRounds);
  const readMs = reads && reads.endMs <= signal.startMs ? reads.endMs - reads.startMs : 0;
  return {
    'http in': span.startMs - leg.sentMs,
    validation: verify.startMs - span.startMs,
    requestState: verify.endMs - verify.startMs,
    'trace link': linkMs,
    'read rounds': readMs,
    checks: signal.startMs - verify.endMs - linkMs - readMs,
    signal: signal.endMs - signal.startMs,
    'workflow task': activity.startMs - signal.endMs,
    'activity start': handler.startMs - activity.startMs,
    handler: handler.endMs - handler.startMs,
    'ask rules': record.startMs - handler.endMs,
    'record round': record.endMs - record.startMs,
    notify: awaited.endMs - record.endMs,
    reply: span.endMs - awaited.endMs,
    'http out': leg.receivedMs - span.endMs,
  };
}

export interface StageSummary {
  stage: Stage;
  what: string;
  mean: number;
  p50: number;
  p90: number;
}

/** Each stage's mean, median and p90 over `legs` (their stages from legStages). */
export function summarizeStages(legs: ReadonlyArray<Record<Stage, number>>): StageSummary[] {
  return STAGES.map(([stage, what]) => {
    const sorted = legs.map((leg) => leg[stage]).sort((a, b) => a - b);
    const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(sorted.length, 1);
    return { stage, what, mean, p50: percentile(sorted, 50), p90: percentile(sorted, 90) };
  });
}
