-- How many retried attempts of a round started its handler. A handler that kills its worker (out of
-- memory, a native crash) fails every attempt the same way; past MAX_HANDLER_ATTEMPTS the round
-- ends its exchange instead of being retried for ever. Attempts that fail before the handler starts
-- (Postgres or Temporal unreachable) are not counted.
CREATE TABLE IF NOT EXISTS exchange_round_starts (
  exchange_id  uuid     NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
  round        integer  NOT NULL CHECK (round >= 1),
  starts       integer  NOT NULL,
  PRIMARY KEY (exchange_id, round)
);
