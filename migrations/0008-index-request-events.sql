-- A session's open requests are joined to the events that first carried them by message key
-- ('request:' || request id), which the (stream_id, message_key) key cannot serve: without this
-- index every GET that re-delivers open requests scanned the whole event log.
CREATE INDEX IF NOT EXISTS legacy_stream_events_request_key_idx
  ON legacy_stream_events (message_key) WHERE message_key LIKE 'request:%';
