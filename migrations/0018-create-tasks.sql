-- Tasks (the Tasks extension, SEP-2663): an exchange that a client follows by task id instead of
-- by retrying its call. The exchange keeps its rows (status, rounds, outcomes); a task adds the
-- unguessable id its client polls with, the principal it is bound to, its TTL (after which it
-- and its records are gone) and the keys of its current ask answered so far by tasks/update.
CREATE TABLE IF NOT EXISTS exchange_tasks (
  task_id           text        PRIMARY KEY,
  exchange_id       uuid        NOT NULL UNIQUE REFERENCES exchanges (id) ON DELETE CASCADE,
  principal         text        NOT NULL,
  ttl_ms            integer     NOT NULL CHECK (ttl_ms > 0),
  poll_interval_ms  integer     NOT NULL CHECK (poll_interval_ms > 0),
  created_at        timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL
);

-- The retention sweep deletes the exchanges of expired tasks; tasks/get stops reading them at once.
CREATE INDEX IF NOT EXISTS exchange_tasks_expires_idx ON exchange_tasks (expires_at);

-- One row per key of an ask that tasks/update answered (the answer itself travels to the workflow
-- in a signal and is recorded with the next round): what tasks/get leaves out of inputRequests,
-- and the answer's size, since all of a round's answers go to its handler in one Temporal payload.
CREATE TABLE IF NOT EXISTS exchange_task_answers (
  exchange_id  uuid        NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
  round        integer     NOT NULL CHECK (round >= 1),
  key          text        NOT NULL,
  bytes        integer     NOT NULL DEFAULT 0,
  answered_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (exchange_id, round, key)
);
