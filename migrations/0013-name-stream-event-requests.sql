-- The event that carries a server-to-client request names that request in a column of its own, so
-- a session's open requests are joined to the events that first carried them, and pruning spares
-- the events of requests still open, by equality on an indexed column rather than by parsing the
-- 'request:' prefix of message keys. Events written before this migration are backfilled from
-- their keys; every other message leaves the column NULL.
ALTER TABLE legacy_stream_events ADD COLUMN IF NOT EXISTS server_request_id text;

UPDATE legacy_stream_events SET server_request_id = substr(message_key, length('request:') + 1)
  WHERE message_key LIKE 'request:%' AND server_request_id IS NULL;

CREATE INDEX IF NOT EXISTS legacy_stream_events_server_request_idx
  ON legacy_stream_events (server_request_id) WHERE server_request_id IS NOT NULL;

-- The prefix index of 0008 served only the joins this column replaces.
DROP INDEX IF EXISTS legacy_stream_events_request_key_idx;
