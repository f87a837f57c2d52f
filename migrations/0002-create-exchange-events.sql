-- Notifications a handler sends while a round runs (progress, log messages), in order, so the API
-- replica holding the client's stream can forward them (NOTIFY names the round; listeners re-read
-- from the last id they sent) and a reconnecting client can be replayed what it missed.

CREATE TABLE IF NOT EXISTS exchange_events (
  id           bigserial   PRIMARY KEY,
  exchange_id  uuid        NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
  round        integer     NOT NULL CHECK (round >= 1),
  kind         text        NOT NULL CHECK (kind IN ('progress', 'log')),
  payload      jsonb       NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS exchange_events_round_idx ON exchange_events (exchange_id, round, id);
