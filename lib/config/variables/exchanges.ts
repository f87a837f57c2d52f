/** How exchanges run: their rounds, their handlers and the state sealed for clients, tasks, and how long records are kept. */
import { z } from 'zod';
import { documented } from './documented';
import { integer, keyRing, unsetWhenEmpty } from './value-kinds';

/**
 * The handler sets the service ships, served by name: `HANDLERS=demo`, or with the older
 * `HANDLER_SET`. built-in-handlers/index.ts maps each name to its set (the compiler holds the two together).
 */
export const BUILT_IN_HANDLER_SETS = ['demo', 'conformance', 'bench', 'none'] as const;
export type BuiltInHandlerSetName = (typeof BUILT_IN_HANDLER_SETS)[number];

/** Exchanges and handlers */
export const EXCHANGE_VARIABLES = {
  ROUND_TIMEOUT_MS: documented(
    integer(1).default(600000),
    'how long a round waits for its answers; past it the exchange ends expired (`-32001`)',
  ),
  MAX_QUESTION_WAIT_MS: documented(
    integer(1).default(86_400_000),
    "the longest a question addressed to someone else may wait (its handler's `waitMs`, cut to this; the round timeout when it names none) before its exchange ends expired. 24 hours by default: a working day in every time zone and a night's hand-off (with `escalate` for whoever is slow), while every waiting question holds its exchange running (MAX_RUNNING_EXCHANGES), its caller's budget (MAX_WAITING_QUESTIONS_PER_PRINCIPAL) and a line in approvers' inboxes, and an approval given days later approves a call made in another state of the world; raise it for waits over a weekend",
  ),
  QUESTION_RESIGNAL_AFTER_MS: documented(
    integer(1_000).default(10_000),
    'how long a claimed answer to a question may stay unsignalled (its API died between the claim and the signal) before another API replica signals it; each replica looks this often',
  ),
  MAX_ROUNDS: documented(
    integer(1).default(8),
    'the most asks one exchange may make; one more ends it capped (`-32011`)',
  ),
  LOCAL_HANDLER_TIMEOUT_MS: documented(
    integer(1, 50_000).default(5_000),
    "one handler execution longer than this ends its exchange with `-32603` (at most 50000: a round's local activity may take 1 minute)",
  ),
  HANDLER_TIMEOUT_MS: documented(
    integer(1, 170_000).default(90_000),
    "the same, for a handler that declares `roundActivity: 'regular'` (at most 170000, under its activity's 3 minutes)",
  ),
  MAX_HANDLER_ATTEMPTS: documented(
    integer(1, 100).default(5),
    'retried attempts of a round that may start its handler (a handler that kills its worker) before the exchange ends with `-32603`; a first start on a worker that held the exchange in its cache is not counted, so such a handler runs at most this many times plus one',
  ),
  STUCK_WORKFLOW_AFTER_MS: documented(
    integer(1000).default(300_000),
    "how long an exchange's workflow tasks may keep failing (a payload that does not decode, non-determinism after a deploy, a payload over Temporal's limits, a bug) before the API terminates the workflow and ends the exchange with `-32603` naming the cause (`data.cause`); it ends between this and 1.5 times this after its first failure, plus `STUCK_WORKFLOW_SWEEP_MS` ([Stuck workflows](operators.md#stuck-workflows)). A deploy rolled back within it saves the exchanges it broke",
  ),
  STUCK_WORKFLOW_SWEEP_MS: documented(
    integer(100).default(30_000),
    'how often each API replica looks for exchanges whose workflows cannot run',
  ),
  STUCK_WORKFLOW_SWEEP_BATCH: documented(
    integer(1, 10_000).default(100),
    'the most running exchanges one look asks Temporal about (one DescribeWorkflowExecution each, and a history read for those failing): only exchanges nothing was recorded for in `STUCK_WORKFLOW_AFTER_MS`, each again at most every half of it. Keep it at or above those idle running exchanges × `STUCK_WORKFLOW_SWEEP_MS` ÷ (`STUCK_WORKFLOW_AFTER_MS` ÷ 2), divided among the API replicas, or ends come later',
  ),
  REQUEST_STATE_TTL_MS: documented(integer(1).default(900000), 'lifetime of a requestState'),
  REQUEST_STATE_KEYS: documented(
    keyRing(),
    'the keys that seal the `requestState` a client carries between the legs of an exchange; `kid:base64key,...`, 32-byte AES-256-GCM keys (a key is `k1:` followed by the output of `openssl rand -base64 32`); the first seals, all open (rotate by prepending)',
    '(required; `npm run dev` makes a development key)',
  ),
  HANDLERS: documented(
    unsetWhenEmpty(z.string().trim().min(1)),
    "the handler set to serve: a built-in one by name (`demo`, `conformance`, `bench`, or `none`: no tools of its own, to serve upstreams alone), or a module that exports one, by path (absolute or relative to the working directory) or package name ([Serving your own handlers](handler-authors.md#writing-a-handler)); set, it wins over `HANDLER_SET`; the API and the worker must name the same. Each exchange records the set's version (its package's `name@version`, else a digest of its file; `demo@0.1.0` for a built-in one)",
    '(none: `HANDLER_SET`)',
  ),
  HANDLER_SET: documented(
    z.enum(BUILT_IN_HANDLER_SETS).default('demo'),
    'the older name, built-in sets only (`demo`, `conformance`, `bench`, `none`): read when `HANDLERS` is unset',
  ),
};

/** Tasks (the Tasks extension, SEP-2663) */
export const TASK_VARIABLES = {
  TASK_TTL_MS: documented(
    integer(1000, 2_147_483_647).default(3_600_000),
    'how long a [task](protocol.md#tasks-the-tasks-extension-sep-2663) and its records live from its creation (its `ttlMs`, set by the server; a 2025-11-25 client may ask for a shorter `ttl`, at least 1000), from 1000 to 2147483647: a running task is ended then, and from then on `tasks/get`, `tasks/update`, `tasks/cancel` (and on 2025-11-25 `tasks/result`) get `-32602`',
  ),
  TASK_POLL_INTERVAL_MS: documented(
    integer(10, 3_600_000).default(1000),
    "the poll interval a task's client is told (`pollIntervalMs`)",
  ),
};

/** Retention of the service's records */
export const RETENTION_VARIABLES = {
  RETENTION_DAYS: documented(
    integer(1).default(7),
    'the worker deletes finished exchanges and ended or idle sessions older than this many days',
  ),
  RETENTION_SWEEP_MS: documented(integer(1000).default(3_600_000), "how often the worker's retention sweep runs"),
};
