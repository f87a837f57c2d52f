-- Legacy (2024-11-05 .. 2025-11-25) clients: their sessions, the calls they made, the
-- server-to-client requests the service sent them, and every message written to their streams.
-- All of it lives here, not in an API process, so any replica can take any POST and a session
-- survives an API restart.

CREATE TABLE IF NOT EXISTS legacy_sessions (
  id                   text        PRIMARY KEY,
  transport            text        NOT NULL CHECK (transport IN ('streamable-http', 'http+sse')),
  protocol_version     text        NOT NULL,
  client_capabilities  jsonb       NOT NULL,
  client_info          jsonb,
  log_level            text,
  principal            text        NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  last_seen_at         timestamptz NOT NULL DEFAULT now(),
  closed_at            timestamptz
);

-- One originating tools/call, prompts/get or resources/read of a session, and the stream that
-- carries its messages (its own POST stream, or the session's SSE stream on 2024-11-05).
CREATE TABLE IF NOT EXISTS legacy_calls (
  session_id      text        NOT NULL REFERENCES legacy_sessions (id) ON DELETE CASCADE,
  request_id      text        NOT NULL,
  exchange_id     uuid        NOT NULL UNIQUE,
  stream_id       text        NOT NULL,
  request_id_json jsonb       NOT NULL,
  progress_token  jsonb,
  finished_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, request_id)
);

CREATE INDEX IF NOT EXISTS legacy_calls_stream_idx ON legacy_calls (stream_id) WHERE finished_at IS NULL;

-- Server-to-client requests made from an ask: one per key, settled exactly once (answered by the
-- client, or withdrawn with one notifications/cancelled).
CREATE TABLE IF NOT EXISTS legacy_open_requests (
  id           text        PRIMARY KEY,
  session_id   text        NOT NULL REFERENCES legacy_sessions (id) ON DELETE CASCADE,
  exchange_id  uuid        NOT NULL,
  round        integer     NOT NULL,
  key          text        NOT NULL,
  message      jsonb       NOT NULL,
  status       text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'withdrawn')),
  response     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  settled_at   timestamptz,
  UNIQUE (exchange_id, round, key)
);

CREATE INDEX IF NOT EXISTS legacy_open_requests_session_idx ON legacy_open_requests (session_id) WHERE status = 'open';

-- Every message written to a stream, in order: the SSE event id is the row id, so a client that
-- reconnects with Last-Event-ID is replayed what follows, by whichever replica it reaches.
-- message_key makes producing a message idempotent (two replicas never send it twice).
CREATE TABLE IF NOT EXISTS legacy_stream_events (
  id           bigserial   PRIMARY KEY,
  session_id   text        NOT NULL REFERENCES legacy_sessions (id) ON DELETE CASCADE,
  stream_id    text        NOT NULL,
  message_key  text        NOT NULL,
  message      jsonb       NOT NULL,
  final        boolean     NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, message_key)
);

CREATE INDEX IF NOT EXISTS legacy_stream_events_stream_idx ON legacy_stream_events (stream_id, id);
