-- Principals (the caller a bearer token names) own exchanges and legacy sessions. Each new
-- exchange counts the running ones of its principal (MAX_RUNNING_EXCHANGES_PER_PRINCIPAL), each new
-- session the open ones of its principal (MAX_OPEN_SESSIONS_PER_PRINCIPAL), and the admin view
-- filters by principal, newest first: partial indexes keep the counts to what is open, and the
-- list's index follows its keyset order.
CREATE INDEX IF NOT EXISTS exchanges_running_principal_idx ON exchanges (principal) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS exchanges_principal_created_idx ON exchanges (principal, created_at, id);
CREATE INDEX IF NOT EXISTS legacy_sessions_open_principal_idx ON legacy_sessions (principal) WHERE closed_at IS NULL;
