/**
 * Every Prometheus metric the service defines: its name, its help text, its labels and which
 * process exports it. The API's and the worker's registries are built from this list, and a test
 * keeps the metrics table of docs/operators.md in step with it. Labels are bounded (labels.ts): `method` is one
 * of the three exchange methods, `target` a handler set's own name, `era` modern or legacy,
 * `status` an exchange status, `cause` a stuck workflow's class (lib/exchange/stuck-causes.ts), `outcome` ask, complete or error, `code` a JSON-RPC code the service
 * defines (or `other`).
 */

export type MetricKind = 'counter' | 'gauge' | 'histogram';
export type MetricProcess = 'api' | 'worker';

export interface MetricDefinition {
  name: string;
  kind: MetricKind;
  help: string;
  labelNames: readonly string[];
  /** Which processes export it (a metric both export counts what each process did). */
  processes: readonly MetricProcess[];
  /** Histogram bucket bounds, in seconds. */
  buckets?: readonly number[];
}

const define = <const T extends MetricDefinition>(definition: T): T => definition;

export const METRICS = {
  exchangesStarted: define({
    name: 'mcp_exchanges_started_total',
    kind: 'counter',
    help: 'Exchanges whose workflow Temporal started (the first leg of a tools/call, prompts/get or resources/read).',
    labelNames: ['method', 'target', 'era'],
    processes: ['api'],
  }),
  exchangesEnded: define({
    name: 'mcp_exchanges_ended_total',
    kind: 'counter',
    help: 'Exchanges that ended, by the status their recorded ending gave them. The worker counts the endings its rounds and workflows record; the API counts those it records for workflows Temporal closed without one (terminated).',
    labelNames: ['method', 'target', 'status'],
    processes: ['api', 'worker'],
  }),
  stuckWorkflowsEnded: define({
    name: 'mcp_stuck_workflows_ended_total',
    kind: 'counter',
    help: "Exchanges whose workflow tasks kept failing for STUCK_WORKFLOW_AFTER_MS and that the API terminated and ended (-32603, data.cause), by cause: non-determinism, payload-undecodable, payload-too-large, workflow-task-failed. Counted by the replica that terminated it; each is also counted in mcp_exchanges_ended_total as failed. Above zero, read the workflow's history in the Temporal UI: a deploy to roll back, a key missing from PAYLOAD_CODEC_KEYS, a payload to shrink.",
    labelNames: ['cause'],
    processes: ['api'],
  }),
  exchangesOpen: define({
    name: 'mcp_exchanges_open',
    kind: 'gauge',
    help: 'Exchanges still running across the deployment (read from Postgres at scrape time; every API replica reports the same value).',
    labelNames: [],
    processes: ['api'],
  }),
  rounds: define({
    name: 'mcp_rounds_total',
    kind: 'counter',
    help: 'Rounds whose handler ran and whose outcome this worker recorded (a retried round that was already recorded is not counted again).',
    labelNames: ['method', 'target', 'outcome'],
    processes: ['worker'],
  }),
  roundDuration: define({
    name: 'mcp_round_duration_seconds',
    kind: 'histogram',
    help: 'Round latency in the worker: from the round activity taking the round to its outcome recorded (the handler execution and the Postgres write).',
    labelNames: ['method', 'target', 'outcome'],
    processes: ['worker'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 90],
  }),
  humanWait: define({
    name: 'mcp_human_wait_seconds',
    kind: 'histogram',
    help: 'How long an ask waited for its answer: from the ask being recorded to the answer being signalled (one per answered round on 2026-07-28, one per answered server-to-client request on the legacy era).',
    labelNames: ['era'],
    processes: ['api'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
  }),
  signalsSent: define({
    name: 'mcp_signals_sent_total',
    kind: 'counter',
    help: 'Signals the API sent to exchange workflows (answers, keyAnswer, questionAnswer, cancel), by result: delivered, workflow_closed (no running workflow took it), failed (Temporal refused or was unreachable).',
    labelNames: ['signal', 'result'],
    processes: ['api'],
  }),
  answersRedelivered: define({
    name: 'mcp_answers_redelivered_total',
    kind: 'counter',
    help: 'Retried answers the API signalled again because the exchange workflow said it lacked them, by era (modern for 2026-07-28 legs and tasks/update, legacy for legacy responses). Above zero, look for an operator reset, or workflows that ran on a release that dropped answers.',
    labelNames: ['era'],
    processes: ['api'],
  }),
  stateOnlyResults: define({
    name: 'mcp_state_only_results_total',
    kind: 'counter',
    help: 'State-only results ("come back": requestState and an empty inputRequests) the API answered because a round outcome was not ready within HTTP_WAIT_MS.',
    labelNames: ['method', 'target'],
    processes: ['api'],
  }),
  rpcErrors: define({
    name: 'mcp_jsonrpc_errors_total',
    kind: 'counter',
    help: 'JSON-RPC errors the API answered HTTP requests with, by era (modern, legacy, or transport before either is known) and code.',
    labelNames: ['era', 'code'],
    processes: ['api'],
  }),
  exchangeErrors: define({
    name: 'mcp_exchange_errors_total',
    kind: 'counter',
    help: 'Exchanges the worker ended with a JSON-RPC error (expiry, cap, cancel, a failed handler, a missing capability...), by code.',
    labelNames: ['method', 'target', 'code'],
    processes: ['worker'],
  }),
  exchangesPinned: define({
    name: 'mcp_worker_version_exchanges_running',
    kind: 'gauge',
    help: "Running exchanges pinned to this worker's deployment version (WORKER_VERSIONING=pinned), read from Temporal's visibility at each scrape: once it is 0 on a version that is no longer current, that version's workers can stop.",
    labelNames: ['deployment', 'build_id'],
    processes: ['worker'],
  }),
  quotaRefusals: define({
    name: 'mcp_quota_refusals_total',
    kind: 'counter',
    help: 'New exchanges refused because a quota of calls was used up (QUOTA_CALLS_PER_*, QUOTAS_FILE), by quota (its rule name) and window (minute, hour, day); counted where refused, so add every replica. Never labelled by principal or tenant: the admin list and the logs name who.',
    labelNames: ['quota', 'window'],
    processes: ['api'],
  }),
  legacyStreamsOpen: define({
    name: 'mcp_legacy_streams_open',
    kind: 'gauge',
    help: 'Legacy SSE streams this API process holds open (GET /mcp, call streams of POST /mcp, GET /sse).',
    labelNames: [],
    processes: ['api'],
  }),
  webhookDeliveries: define({
    name: 'mcp_webhook_deliveries_total',
    kind: 'counter',
    help: 'Webhook delivery attempts and their ends, per receiver and event: delivered (a 2xx), failed_attempt (every attempt that did not deliver, the last included), given_up (an event a receiver never got: attempts used up, or refused by a 4xx).',
    labelNames: ['outcome'],
    processes: ['worker'],
  }),
  webhookDeliveryDuration: define({
    name: 'mcp_webhook_delivery_duration_seconds',
    kind: 'histogram',
    help: "One webhook delivery attempt, from the request to the receiver's status (or the failure), by outcome: delivered or failed_attempt.",
    labelNames: ['outcome'],
    processes: ['worker'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
  upstreamCalls: define({
    name: 'mcp_upstream_calls_total',
    kind: 'counter',
    help: 'Calls a gateway round made to an upstream MCP server (UPSTREAMS_FILE, UPSTREAM_URL), attempts included, by upstream and outcome: result, ask (an InputRequiredResult), protocol_error (its JSON-RPC error), failed (unreachable, refused, timed out, an HTTP error, an unreadable or oversized answer), circuit_open (not tried: its circuit is open).',
    labelNames: ['upstream', 'outcome'],
    processes: ['worker'],
  }),
  upstreamCallDuration: define({
    name: 'mcp_upstream_call_duration_seconds',
    kind: 'histogram',
    help: 'One call to an upstream, from the request to its answer (or the failure), by upstream and outcome (as mcp_upstream_calls_total, circuit_open aside).',
    labelNames: ['upstream', 'outcome'],
    processes: ['worker'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  }),
  upstreamCircuitOpen: define({
    name: 'mcp_upstream_circuit_open',
    kind: 'gauge',
    help: "1 while an upstream's circuit is open in this worker (its calls fail at once), else 0.",
    labelNames: ['upstream'],
    processes: ['worker'],
  }),
} as const;

export type MetricKey = keyof typeof METRICS;
