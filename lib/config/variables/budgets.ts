/**
 * The budgets: every input, buffer and store a client can grow, each answered with a clear error
 * when reached (docs/configuration.md "Limits").
 */
import { documented } from './documented';
import { integer } from './value-kinds';

/** Budgets */
export const BUDGET_VARIABLES = {
  MAX_JSON_DEPTH: documented(
    integer(4, 1000).default(64),
    'nesting of arrays and objects in one message; when reached: `-32602`, `data.path` and `maxDepth`',
  ),
  MAX_REQUEST_ID_LENGTH: documented(
    integer(16, 1024).default(256),
    "characters of a string JSON-RPC `id` (it keys the service's records of a call); when reached: HTTP 400, `-32600`, `data.path` `id`",
  ),
  MAX_TARGET_LENGTH: documented(
    integer(16, 2000).default(1024),
    'UTF-8 bytes of a tool or prompt name or resource URI (it names the workflow in Temporal); when reached: `-32602`, `data.path` `params.name` / `params.uri`',
  ),
  MAX_ROUND_INPUT_BYTES: documented(
    integer(1024, 917_504).default(524_288),
    "serialized arguments + answers + client capabilities of one round, at most 917504 (a round's activity carries the first leg's input and the latest answers, and twice the budget must stay under Temporal's 2 MB payload limit); past it HTTP 413, `-32602`, `data.path` `params`. Legacy era: one round's answers (this answer plus those already taken), `data.path` `result`, nothing settled, the request stays open. Tasks: one round's answers across its `tasks/update` calls, `data.path` `params.inputResponses`, nothing taken, the keys stay outstanding",
  ),
  MAX_ANSWER_BODY_BYTES: documented(
    integer(1024, 1_048_576).default(65_536),
    "bytes of one answer to a question (the answer page's form or the answer API's JSON); when reached: HTTP 413",
  ),
  MAX_RECORDED_REFUSALS: documented(
    integer(0, 10_000).default(50),
    "refused attempts recorded per question (who, when, why); past it they are only counted (`refused_unrecorded`), so one answerer cannot grow a question's audit without bound",
  ),
  MAX_LISTED_QUESTIONS: documented(
    integer(1, 1000).default(100),
    "questions one inbox read returns (the answer page and `GET /answers/api/questions`): taken round robin by caller (each caller's soonest deadline, then each one's next), so one caller's flood cannot push the others out; when reached: the rest are counted (`moreWaiting`, and a line on the page) and listed as these are answered",
  ),
  MAX_WAITING_QUESTIONS_PER_PRINCIPAL: documented(
    integer(1, 100_000).default(50),
    'questions addressed to someone else (`elicitFrom`) waiting at once for one authenticated caller (the person or service behind it, whatever MCP client it calls through), across its exchanges (counted in Postgres under a lock on the caller, when an ask is recorded, so concurrent asks cannot pass it); not applied with `AUTH_MODE=off`, where every caller is one principal; when reached: the ask is not recorded and its exchange ends with `-32000`, `data.budget` `MAX_WAITING_QUESTIONS_PER_PRINCIPAL` and `data.limit`, nothing of it written',
  ),
  MAX_REPEATED_ANSWERS: documented(
    integer(0, 100).default(3),
    "times a retried answer is checked against its exchange's workflow, and signalled again if the workflow lacks it: per legacy request repeated, and per round for a 2026-07-28 leg that comes back with its answers or a `tasks/update` of an answered key (counted in Postgres, before the workflow is asked: the query can replay a whole history); when reached: the retry is answered from what is recorded, the workflow not asked, and logged (a legacy repeat: HTTP 202)",
  ),
  LEGACY_STREAM_MAX_EVENTS: documented(
    integer(16).default(1000),
    "events kept per stream (the SSE event log); when reached: the oldest events are dropped, except a call's final response and its still-open requests; a `Last-Event-ID` that was dropped replays from the oldest kept",
  ),
  LEGACY_REPLAY_PAGE_SIZE: documented(
    integer(1, 10_000).default(100),
    'rows read per query when a stream is delivered or replayed; when reached: the next page is read after the consumer took the previous one',
  ),
  SSE_MAX_BUFFERED_BYTES: documented(
    integer(1024).default(1_048_576),
    "bytes an SSE consumer may leave unread in the API process (legacy streams, and a 2026-07-28 leg's notification stream); when reached: delivery waits for `drain` (up to 1 s per page); past the budget the stream is closed and logged (a 2024-11-05 session ends with it; a 2026-07-28 client retries its leg)",
  ),
  MAX_OPEN_STREAMS: documented(
    integer(1).default(1000),
    'SSE streams one API process holds (`GET /mcp`, call streams of `POST /mcp`, `GET /sse`); when reached: `-32000` / 429',
  ),
  MAX_STREAMS_PER_SESSION: documented(
    integer(1).default(8),
    'SSE streams one session holds on one API process; when reached: `-32000` / 429',
  ),
  MAX_OPEN_SUBSCRIPTIONS: documented(
    integer(1).default(1000),
    '2026-07-28 `subscriptions/listen` streams one API process holds open; when reached: `-32000` / 429',
  ),
  MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL: documented(
    integer(1).default(8),
    "one principal's `subscriptions/listen` streams on one API process (with `AUTH_MODE=off` every caller is one principal); when reached: `-32000` / 429",
  ),
  MAX_OPEN_SESSIONS: documented(
    integer(1).default(10_000),
    'sessions not ended, across the deployment (counted in Postgres); when reached: `initialize` and `GET /sse` get `-32000` / 429',
  ),
  MAX_RUNNING_EXCHANGES: documented(
    integer(1).default(10_000),
    "running exchanges across the deployment (exact counters in Postgres, kept by triggers in the transaction that opens or ends an exchange, read in the statement that opens one); first legs that open at the same moment on different connections may each see the other's exchange not yet counted, so a flood exceeds the budget by at most one exchange per API connection to Postgres (`DATABASE_POOL_SIZE` per replica); when reached: a first leg gets `-32000` / 429",
  ),
  MAX_RUNNING_EXCHANGES_PER_SESSION: documented(
    integer(1).default(32),
    "a session's calls whose exchange has not finished; when reached: a new `tools/call`, `prompts/get` or `resources/read` gets `-32000` / 429 (the same request id again still re-attaches)",
  ),
  MAX_RUNNING_EXCHANGES_PER_PRINCIPAL: documented(
    integer(1).default(1000),
    'running exchanges of one authenticated principal, both eras (counted on an index of running exchanges by principal, in the statement that opens one, with the same leeway under a flood); not applied with `AUTH_MODE=off`, where every caller is one principal; when reached: a first leg gets `-32000` / 429',
  ),
  MAX_OPEN_SESSIONS_PER_PRINCIPAL: documented(
    integer(1).default(100),
    'legacy sessions not ended of one authenticated principal (not applied with `AUTH_MODE=off`); when reached: `initialize` and `GET /sse` get `-32000` / 429',
  ),
  MAX_INFLIGHT_LEGS: documented(
    integer(1).default(1000),
    '2026-07-28 legs one API process holds open while they wait; when reached: `-32000` / 429',
  ),
  MAX_INFLIGHT_LEGS_PER_PRINCIPAL: documented(
    integer(1).default(250),
    "2026-07-28 legs of one authenticated principal one API process holds open while they wait, so one caller's flood leaves `MAX_INFLIGHT_LEGS` room for everyone else's (not applied with `AUTH_MODE=off`, where every caller is one principal); when reached: `-32000` / 429",
  ),
  SERVED_ASKS_MAX_BYTES: documented(
    integer(0, 1_073_741_824).default(4_194_304),
    'memory one API process keeps the asks it handed its clients in (about 1.1 KB for an ask of one short question), until they are answered or their deadline nears, so an answer to one is signalled without reading the ask back first (0 keeps none, and every answer reads first); when reached: the oldest are dropped, and answers to those read first',
  ),
  CAPACITY_RETRY_AFTER_S: documented(integer(1, 3600).default(5), 'the `Retry-After` of every capacity refusal'),
};
