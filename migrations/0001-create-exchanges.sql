-- Exchanges and their rounds: the service's read model of every durable multi-round-trip call.
-- Temporal is the source of truth for progress; the worker writes one row per round outcome here
-- and announces it with NOTIFY, and any API replica serves the waiting client from these rows.

CREATE TABLE IF NOT EXISTS exchanges (
  id              uuid PRIMARY KEY,
  workflow_id     text        NOT NULL UNIQUE,
  era             text        NOT NULL CHECK (era IN ('modern', 'legacy')),
  method          text        NOT NULL CHECK (method IN ('tools/call', 'prompts/get', 'resources/read')),
  target          text        NOT NULL,
  request_digest  text        NOT NULL,
  principal       text        NOT NULL,
  status          text        NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'expired', 'capped', 'cancelled')),
  rounds          integer     NOT NULL DEFAULT 0,
  asks            integer     NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS exchanges_status_updated_idx ON exchanges (status, updated_at);

-- One row per handler execution (round N >= 1) or terminal event (an expiry is the round after
-- the unanswered ask). First write wins: a retried activity finds the row and returns it.
CREATE TABLE IF NOT EXISTS exchange_rounds (
  exchange_id     uuid        NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
  round           integer     NOT NULL CHECK (round >= 1),
  answers         jsonb,
  answers_digest  text,
  outcome_kind    text        NOT NULL CHECK (outcome_kind IN ('ask', 'complete', 'error')),
  outcome         jsonb       NOT NULL,
  duration_ms     integer,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (exchange_id, round)
);
