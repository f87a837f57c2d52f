-- Open legacy sessions are counted against MAX_OPEN_SESSIONS on every initialize and
-- GET /sse: a partial index keeps that count to the open ones.
CREATE INDEX IF NOT EXISTS legacy_sessions_open_idx ON legacy_sessions (id) WHERE closed_at IS NULL;
