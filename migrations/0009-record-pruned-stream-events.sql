-- A stream keeps at most LEGACY_STREAM_MAX_EVENTS events; older ones are dropped. Each stream that
-- lost events keeps the range of ids it dropped, so a client resuming with a Last-Event-ID inside
-- that range is still recognised as resuming this stream (and is replayed from the oldest kept).
CREATE TABLE IF NOT EXISTS legacy_stream_pruning (
  stream_id        text   PRIMARY KEY,
  session_id       text   NOT NULL REFERENCES legacy_sessions (id) ON DELETE CASCADE,
  first_dropped_id bigint NOT NULL,
  last_dropped_id  bigint NOT NULL
);

CREATE INDEX IF NOT EXISTS legacy_stream_pruning_session_idx ON legacy_stream_pruning (session_id);
